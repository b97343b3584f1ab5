import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Conversion, Referral } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { conversionChain } from './conversion-chain';

const record = (id: string, level: number, referrerId: string, conversionId = 'conv_1'): Conversion => ({
  id,
  conversionId,
  referralId: `ref_${referrerId}`,
  referralCode: `${referrerId.toUpperCase()}1`,
  originalReferralCode: 'CARL1',
  referrerId,
  refereeId: 'dana',
  status: 'CONVERTED',
  rewardAmount: 10 / level,
  level,
  amount: 99,
  reversedAmount: 0,
  currency: 'USD',
  isFlagged: false,
  convertedAt: '2026-11-24T10:00:00.000Z',
  createdAt: '2026-11-24T10:00:00.000Z',
  Campaign: { id: 'cmp_1', name: 'Launch' },
});

describe('referrals and conversions', () => {
  it("orders a conversion's records from the direct referrer up, leaving other conversions out", () => {
    const records = [record('c3', 3, 'ana'), record('c1', 1, 'carl'), record('x', 1, 'zed', 'conv_2'), record('c2', 2, 'bea')];
    expect(conversionChain(records, 'conv_1').map((r) => r.referrerId)).toEqual(['carl', 'bea', 'ana']);
  });

  it('finds a referral by its code, and says so when none has it', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/referrals/NOPE', apiError(404, 'NOT_FOUND', 'Referral not found.'))
      .on('GET', '/api/v1/referrals/ANA123', {
        body: { referral: { id: 'ref_1', referralCode: 'ANA123', referrerId: 'ana', refereeId: null, status: 'PENDING', level: 1, rewardAmount: 0, isFlagged: false, createdAt: '2026-11-24T10:00:00.000Z', Campaign: { id: 'cmp_1', name: 'Launch', status: 'ACTIVE' } } },
      });
    const { location } = renderApp('/apps/app_1/referrals?code=NOPE', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByText('No referral has the code NOPE')).toBeInTheDocument();
    const user = userEvent.setup();
    const code = screen.getByLabelText('Referral code');
    await user.clear(code);
    await user.type(code, 'ANA123{Enter}');
    await waitFor(() => expect(location()).toBe('/apps/app_1/referrals?code=ANA123'));
    expect(await screen.findByRole('link', { name: 'ana' })).toBeInTheDocument();
  });

  it("lists a referrer's referrals in every campaign, newest first, without picking one", async () => {
    const referral: Referral = {
      id: 'ref_1',
      referralCode: 'ANA123',
      referrerId: 'ana',
      refereeId: null,
      status: 'COMPLETED',
      level: 1,
      rewardAmount: 10,
      conversions: 1,
      isFlagged: true,
      createdAt: '2026-11-24T10:00:00.000Z',
      Campaign: { id: 'cmp_1', name: 'Launch', status: 'ACTIVE' },
    };
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/referrals', { body: { referrals: [referral], pagination: page(1) } });
    renderApp('/apps/app_1/referrals?user=ana', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByText('ANA123')).toBeInTheDocument();
    expect(screen.getByText('completed')).toBeInTheDocument();
    const sent = api.sent('GET', '/api/v1/referrals')[0]!.query;
    expect([sent.get('referrerId'), sent.get('campaignId')]).toEqual(['ana', null]);
  });

  it('says per code what the API has (earned, its conversions) and opens its conversions; no column of empty referees', async () => {
    const base: Referral = {
      id: 'ref_1',
      referralCode: 'ANA123',
      referrerId: 'ana',
      refereeId: null,
      status: 'COMPLETED',
      level: 1,
      rewardAmount: 20,
      conversions: 2,
      isFlagged: false,
      createdAt: '2026-11-24T10:00:00.000Z',
      Campaign: { id: 'cmp_1', name: 'Launch', status: 'ACTIVE' },
    };
    // A code made for one invited referee (POST /referrals with refereeId), not converted yet.
    const invited: Referral = { ...base, id: 'ref_2', referralCode: 'BEA456', referrerId: 'bea', refereeId: 'carl', status: 'PENDING', rewardAmount: 0, conversions: 0 };
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/referrals', { body: { referrals: [base, invited], pagination: page(2) } })
      .on('GET', '/api/v1/conversions', { body: { conversions: [record('c1', 1, 'ana')], pagination: page(1) } });
    const { location } = renderApp('/apps/app_1/referrals?campaignId=cmp_1', { session: sessionFor('VIEWER'), api });
    const converted = (await screen.findByText('ANA123')).closest('tr')!;
    expect(screen.queryByRole('columnheader', { name: 'Referee' })).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Code', 'Referrer', 'Status', 'Earned', 'Conversions', 'Campaign', 'Created']);
    // A referral carries no currency: its campaign's.
    await waitFor(() => expect(converted).toHaveTextContent('$20.00'));
    expect(within(converted).getByRole('button', { name: 'Conversions through ANA123' })).toHaveTextContent('2');
    const pending = screen.getByText('BEA456').closest('tr')!;
    expect(pending).toHaveTextContent('created for carl');
    expect(pending).toHaveTextContent('none yet');
    expect(within(pending).queryByRole('button')).toBeNull();
    await userEvent.setup().click(within(converted).getByRole('button', { name: 'Conversions through ANA123' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/referrals?campaignId=cmp_1&tab=conversions&code=ANA123'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/conversions').at(-1)?.query.get('referralCode')).toBe('ANA123'));
  });

  it("lists a user's conversions and opens a conversion with its chain of levels", async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/conversions', (r) =>
        r.query.get('userId') === 'dana'
          ? { body: { conversions: [record('c1', 1, 'carl'), record('c2', 2, 'bea'), { ...record('f1', 1, 'zed', 'f1'), status: 'CLICKED', convertedAt: null }], pagination: page(3) } }
          : { body: { conversions: [], pagination: page(0) } },
      );
    renderApp('/apps/app_1/referrals?tab=conversions&user=dana', { session: sessionFor('VIEWER'), api });
    const user = userEvent.setup();
    // Three records, one of them a funnel record (CLICKED): no conversion yet, nothing to open.
    const levels = await screen.findAllByRole('button', { name: 'Details of the conversion of dana' });
    expect(screen.getAllByRole('row')).toHaveLength(4);
    expect(levels).toHaveLength(2);
    await user.click(levels[0]!);
    const drawer = await screen.findByRole('dialog', { name: 'Conversion' });
    expect(await within(drawer).findByText('Level 1: carl')).toBeInTheDocument();
    expect(within(drawer).getByText('Level 2: bea')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/conversions')[0]!.query.get('userId')).toBe('dana');
  });

  it("shows each record's sale and reward in its currency, what reversals took off the sale, and a reversed conversion's reward struck through", async () => {
    const euros = { ...record('c1', 1, 'carl'), currency: 'EUR', amount: 80, rewardAmount: 8, reversedAmount: 20 };
    const reversed = { ...record('c2', 1, 'bea', 'conv_2'), status: 'REVERSED' as const, reversedAmount: 99 };
    const noSale = { ...record('c3', 1, 'ana', 'conv_3'), amount: null };
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/conversions', { body: { conversions: [euros, reversed, noSale], pagination: page(3) } });
    renderApp('/apps/app_1/referrals?tab=conversions', { session: sessionFor('VIEWER'), api });
    const row = async (referrerId: string) => (await screen.findByText(referrerId, { selector: 'td' })).closest('tr')!;
    const carl = await row('carl');
    expect(within(carl).getByText('€80.00')).toBeInTheDocument();
    expect(within(carl).getByText('€20.00 reversed')).toBeInTheDocument();
    expect(within(carl).getByText('€8.00')).toBeInTheDocument();
    const bea = await row('bea');
    expect(within(bea).getByText('reversed')).toBeInTheDocument();
    expect(within(bea).getByLabelText('$10.00, reversed')).toBeInTheDocument();
    expect(within(bea).getByRole('button', { name: 'Details of the conversion of dana' })).toBeInTheDocument();
    expect(within(await row('ana')).getByText('—')).toBeInTheDocument();
    // REVERSED is a status to filter by.
    await userEvent.setup().click(screen.getByRole('combobox', { name: 'Status' }));
    expect(await screen.findByRole('option', { name: 'reversed' })).toBeInTheDocument();
  });
});
