import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeApi, page } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

describe('the campaigns list', () => {
  it('shows each campaign as the API derives it: scheduled before its start, ended after its end, with the schedule', async () => {
    const campaigns = [
      campaign({ id: 'cmp_soon', name: 'Soon', effectiveStatus: 'SCHEDULED', startsAt: '2030-03-01T09:00:00.000Z' }),
      campaign({ id: 'cmp_over', name: 'Over', effectiveStatus: 'ENDED', endsAt: '2020-01-01T00:00:00.000Z' }),
      campaign({ id: 'cmp_now', name: 'Now' }),
    ];
    const stats = { totalReferrals: 4, totalClicks: 9, totalConversions: 1, completedReferrals: 1, conversionRate: 25, totalRewardValue: 12.5 };
    const api = new FakeApi().on('GET', '/api/v1/stats/campaigns', {
      body: { campaigns: campaigns.map((c) => ({ campaign: c, stats })), totals: stats, pagination: page(3) },
    });
    renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api });
    const row = async (name: string) => (await screen.findByRole('link', { name })).closest('tr')!;
    expect(within(await row('Soon')).getByText('scheduled')).toBeInTheDocument();
    expect(within(await row('Soon')).getByText(/^from 2030-03-01/)).toBeInTheDocument();
    expect(within(await row('Over')).getByText('ended')).toBeInTheDocument();
    expect(within(await row('Over')).getByText(/^until 2020-01-01/)).toBeInTheDocument();
    expect(within(await row('Now')).getByText('active')).toBeInTheDocument();
    expect(within(await row('Now')).queryByText(/^from|^until/)).toBeNull();
    // Each row with its figures, as GET /stats gives them.
    expect(within(await row('Now')).getByText('25.00 %')).toBeInTheDocument();
    expect(within(await row('Now')).getByText('$12.50')).toBeInTheDocument();
  });

  it('shows each rule as it pays, fixed or a percent, its holding and recurrence, and the reward value in the campaign currency', async () => {
    const campaigns = [
      campaign({
        id: 'cmp_eur',
        name: 'Euros',
        currency: 'EUR',
        referrerReward: { amount: null, percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' },
        refereeReward: { amount: 5, percent: null, maxAmount: null, fulfillmentType: 'COUPON_CODE' },
        holdDays: 14,
        recurringMonths: 12,
      }),
      campaign({ id: 'cmp_jpy', name: 'Yen', currency: 'JPY', referrerReward: { amount: null, percent: 2.5, maxAmount: null, fulfillmentType: 'MANUAL' } }),
    ];
    const stats = { totalReferrals: 4, totalClicks: 9, totalConversions: 1, completedReferrals: 1, conversionRate: 25, totalRewardValue: 1234.5 };
    const api = new FakeApi().on('GET', '/api/v1/stats/campaigns', {
      body: { campaigns: campaigns.map((c) => ({ campaign: c, stats })), totals: stats, pagination: page(2) },
    });
    renderApp('/apps/app_1/campaigns', { session: sessionFor('VIEWER'), api });
    const euros = (await screen.findByRole('link', { name: 'Euros' })).closest('tr')!;
    expect(within(euros).getByText('Referrer 10 % (max €50.00) · Discount code')).toBeInTheDocument();
    expect(within(euros).getByText('Referee €5.00 · Coupon code')).toBeInTheDocument();
    expect(within(euros).getByText('€1,234.50')).toBeInTheDocument();
    expect(within(euros).getByText('held 14 days · recurring 12 months')).toBeInTheDocument();
    const yen = screen.getByRole('link', { name: 'Yen' }).closest('tr')!;
    expect(within(yen).getByText('Referrer 2.5 % · Manual')).toBeInTheDocument();
    expect(within(yen).queryByText(/^Referee|levels$/)).toBeNull();
    expect(within(yen).getByText('¥1,235')).toBeInTheDocument();
    expect(within(yen).getByText('no holding period · first conversion only')).toBeInTheDocument();
  });

  it('filters by what the list shows: the effective status', async () => {
    const none = { totalReferrals: 0, totalClicks: 0, totalConversions: 0, completedReferrals: 0, conversionRate: 0, totalRewardValue: 0 };
    const api = new FakeApi().on('GET', '/api/v1/stats/campaigns', { body: { campaigns: [], totals: none, pagination: page(0) } });
    renderApp('/apps/app_1/campaigns?status=SCHEDULED', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByText('No scheduled campaigns')).toBeInTheDocument();
    const query = api.sent('GET', '/api/v1/stats/campaigns')[0]!.query;
    expect([query.get('effectiveStatus'), query.get('status')]).toEqual(['SCHEDULED', null]);
  });
});
