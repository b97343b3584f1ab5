import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TimeseriesBucket } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { distinctLines } from '../../ui/chart-figure';

const bucket = (start: string, referrals: number, clicks: number, conversions: number): TimeseriesBucket => ({
  start,
  referrals,
  clicks,
  conversions,
  rewardValue: conversions * 10,
  reversals: conversions - 1,
  conversionRate: 0,
});

describe('the overview charts for keyboard and screen-reader users', () => {
  it('names each chart, gives its figures as a table, and keeps its drawing out of the tab order', async () => {
    // Two days where referrals and clicks are equal: the lines overlap there.
    const buckets = [bucket('2026-11-23T00:00:00.000Z', 3, 3, 1), bucket('2026-11-24T00:00:00.000Z', 2, 5, 2)];
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } })
      .on('GET', '/api/v1/stats/timeseries', { body: { campaignId: 'cmp_1', interval: 'day', from: '', to: '', buckets } })
      .on('GET', '/api/v1/incentives/stats/timeseries', {
        body: {
          interval: 'day',
          from: '',
          to: '',
          totals: { events: 0, activeUsers: 0, coinsIssued: 0, coinsRedeemed: 0, tokensIssued: 0, tokensRedeemed: 0, xpIssued: 0, redemptions: 0, coinsExpired: 0, tokensExpired: 0, coinsReversed: 0, tokensReversed: 0 },
          buckets: [],
        },
      });
    renderApp('/apps/app_1/overview?campaignId=cmp_1', { session: sessionFor('VIEWER'), api });
    const funnel = await screen.findByRole('figure', { name: 'Referrals, clicks, conversions and reversals per day' });
    const table = within(funnel).getByRole('table', { name: 'Referrals, clicks, conversions and reversals per day' });
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual(['DayReferralsClicksConversionsReversals', '2026-11-233310', '2026-11-242521']);
    expect(screen.getByRole('figure', { name: 'Reward value per day' })).toBeInTheDocument();
    expect(await screen.findByRole('figure', { name: 'Coins and tokens issued against redeemed per day' })).toBeInTheDocument();
    for (const figure of screen.getAllByRole('figure')) {
      // Nothing of a drawing is a stop of Tab (Recharts' accessibility layer would make its SVG one), or read twice.
      expect(figure.querySelectorAll('[tabindex]:not([tabindex="-1"]), a[href], button, input')).toHaveLength(0);
      expect(figure.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    }
  });

  it('draws equal series apart: each line dashed its own way and thinner than the one under it', () => {
    const { series, lineProps } = distinctLines([
      { name: 'Referrals', color: 'indigo.6' },
      { name: 'Clicks', color: 'teal.6' },
      { name: 'Conversions', color: 'orange.6' },
      { name: 'Reversals', color: 'red.6' },
    ]);
    expect(series.map((s) => s.strokeDasharray)).toEqual([undefined, '8 4', '2 3', '12 3 3 3']);
    expect(new Set(series.map((s) => s.strokeDasharray)).size).toBe(4);
    const widths = series.map((s) => lineProps(s).strokeWidth!);
    expect(widths).toEqual([4, 3, 2, 1.5]);
    expect(series[1]).toMatchObject({ name: 'Clicks', color: 'teal.6' });
  });
});
