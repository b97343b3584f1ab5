import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EngineBucket, TimeseriesBucket } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { actionChartPoints, actionTotals, engineChartPoints } from './engine-figures';
import { chartPoints, customRange, periodOf, periodRange, periodTotals } from './overview-figures';

const bucket = (start: string, referrals: number, clicks: number, conversions: number, rewardValue: number, reversals = 0): TimeseriesBucket => ({
  start,
  referrals,
  clicks,
  conversions,
  rewardValue,
  reversals,
  conversionRate: clicks === 0 ? 0 : Math.round((conversions / clicks) * 10_000) / 100,
});
const buckets = [bucket('2026-11-22T00:00:00.000Z', 4, 10, 1, 10.1), bucket('2026-11-23T00:00:00.000Z', 0, 0, 0, 0), bucket('2026-11-24T00:00:00.000Z', 2, 5, 2, 20.2, 2)];

describe('the overview figures', () => {
  it('adds the buckets up into the period counts (the rate is GET /stats\'s, not a sum of buckets)', () => {
    expect(periodTotals(buckets)).toEqual({ referrals: 6, clicks: 15, conversions: 3, rewardValue: 30.3, reversals: 2 });
    expect(periodTotals([])).toEqual({ referrals: 0, clicks: 0, conversions: 0, rewardValue: 0, reversals: 0 });
  });

  it('reads a custom period of whole UTC days, both included, and says what is wrong with one that is not a period', () => {
    expect(customRange('2026-11-01', '2026-11-28')).toEqual({ range: { from: '2026-11-01T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z' } });
    expect(customRange('2026-11-28', '2026-11-28')).toEqual({ range: { from: '2026-11-28T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z' } });
    expect(customRange('2026-11-28', '2026-11-01')).toEqual({ problem: 'The last day comes before the first.' });
    expect(customRange('2025-01-01', '2026-11-28')).toEqual({ problem: 'A period is at most 366 days.' });
    expect(customRange('2026-11-01', 'soon')).toEqual({ problem: 'Pick both days.' });
    expect(customRange(null, '2026-11-01')).toBeNull();
  });

  it('turns each bucket into a chart point named by its day (zeros kept)', () => {
    expect(chartPoints(buckets).map((p) => [p.date, p.Referrals, p.Clicks, p.Conversions, p.Reversals, p['Reward value']])).toEqual([
      ['2026-11-22', 4, 10, 1, 0, 10.1],
      ['2026-11-23', 0, 0, 0, 0, 0],
      ['2026-11-24', 2, 5, 2, 2, 20.2],
    ]);
  });

  it('covers whole UTC days up to today, 30 unless 7 or 90 is asked', () => {
    expect(periodRange(7, new Date('2026-11-24T15:30:00Z'))).toEqual({ from: '2026-11-18T00:00:00.000Z', to: '2026-11-25T00:00:00.000Z' });
    expect([periodOf('7'), periodOf('90'), periodOf('365'), periodOf(null)]).toEqual([7, 90, 30, 30]);
  });
});

const ZERO_STATS = { totalReferrals: 0, totalClicks: 0, totalConversions: 0, completedReferrals: 0, conversionRate: 0, totalRewardValue: 0, totalReversals: 0 };

describe('the overview page', () => {
  it('reads the chosen campaign and period from the URL and shows its numbers', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign(), campaign({ id: 'cmp_2', name: 'Spring', currency: 'EUR' })], pagination: page(2) } })
      .on('GET', '/api/v1/stats/timeseries', (r) => ({ body: { campaignId: r.query.get('campaignId'), interval: 'day', from: r.query.get('from'), to: r.query.get('to'), buckets } }))
      .on('GET', '/api/v1/stats', { body: { ...ZERO_STATS, campaignId: 'cmp_2', totalReferrals: 4, completedReferrals: 1, conversionRate: 25 } });
    renderApp('/apps/app_1/overview?campaignId=cmp_2&days=7', { session: sessionFor('VIEWER'), api });
    // The rate is GET /stats's (converted referrals per referral, all time), whatever the period's buckets hold.
    expect(await screen.findByLabelText('Conversion rate')).toHaveTextContent('25.00 %');
    expect(api.sent('GET', '/api/v1/stats')[0]!.query.get('campaignId')).toBe('cmp_2');
    expect(screen.getByLabelText('Referrals', { selector: 'p' })).toHaveTextContent('6');
    expect(screen.getByLabelText('Clicks')).toHaveTextContent('15');
    expect(screen.getByLabelText('Conversions')).toHaveTextContent('3');
    // In the campaign's currency, net of reversals: the API's figure, which its help says.
    await waitFor(() => expect(screen.getByLabelText('Reward value')).toHaveTextContent(/^€30\.30$/));
    expect(screen.getByLabelText('Reward value').parentElement).toHaveTextContent(/net of reversals: the API’s figure\. In the period\./);
    // Refunds, chargebacks and cancellations of the period: the buckets' reversals.
    expect(screen.getByLabelText('Reversals')).toHaveTextContent(/^2$/);
    expect(screen.getByLabelText('Reversals').parentElement).toHaveTextContent('totalReversals of GET /stats. In the period.');
    const sent = api.sent('GET', '/api/v1/stats/timeseries')[0]!;
    expect(sent.query.get('campaignId')).toBe('cmp_2');
    expect(sent.query.get('interval')).toBe('day');
    expect(Date.parse(sent.query.get('to')!) - Date.parse(sent.query.get('from')!)).toBe(7 * 86_400_000);
  });

  it('opens the newest campaign when the URL names none, and puts it in the URL', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign({ id: 'cmp_9' })], pagination: page(1) } })
      .on('GET', '/api/v1/stats/timeseries', { body: { campaignId: 'cmp_9', interval: 'day', from: '', to: '', buckets: [] } })
      .on('GET', '/api/v1/stats', { body: { ...ZERO_STATS, campaignId: 'cmp_9' } });
    const { location } = renderApp('/apps/app_1/overview', { session: sessionFor('VIEWER'), api });
    await waitFor(() => expect(location()).toBe('/apps/app_1/overview?campaignId=cmp_9'));
    expect(await screen.findByLabelText('Conversion rate')).toHaveTextContent('0.00 %');
  });

  it('shows every campaign at once: the app\'s series, its rate, its best referrers and the campaigns side by side', async () => {
    const totals = { ...ZERO_STATS, totalReferrals: 8, completedReferrals: 2, conversionRate: 25 };
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign({ id: 'cmp_9', name: 'Autumn' })], pagination: page(1) } })
      .on('GET', '/api/v1/stats/timeseries', (r) => ({ body: { campaignId: null, interval: 'day', from: r.query.get('from'), to: r.query.get('to'), buckets } }))
      .on('GET', '/api/v1/stats/campaigns', { body: { campaigns: [{ campaign: campaign({ id: 'cmp_9', name: 'Autumn' }), stats: totals }], totals, pagination: page(1) } })
      .on('GET', '/api/v1/stats/top-referrers', (r) => ({ body: { from: r.query.get('from'), to: r.query.get('to'), referrers: [{ userId: 'ann', conversions: 3, rewardValue: 30 }] } }));
    renderApp('/apps/app_1/overview?campaignId=all&days=custom&from=2026-11-01&to=2026-11-10', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByLabelText('Conversion rate')).toHaveTextContent('25.00 %');
    expect(screen.getByLabelText('Conversions')).toHaveTextContent('3');
    const series = api.sent('GET', '/api/v1/stats/timeseries')[0]!.query;
    expect([series.get('campaignId'), series.get('from'), series.get('to')]).toEqual([null, '2026-11-01T00:00:00.000Z', '2026-11-11T00:00:00.000Z']);
    const top = await screen.findByRole('table', { name: 'Top referrers' });
    expect(top).toHaveTextContent('ann');
    expect(api.sent('GET', '/api/v1/stats/top-referrers')[0]!.query.get('by')).toBe('CONVERSIONS');
    expect(await screen.findByRole('table', { name: "Campaigns' figures" })).toHaveTextContent('Autumn');
    // Every campaign in dollars: the app's reward values are in dollars.
    await waitFor(() => expect(screen.getByLabelText('Reward value')).toHaveTextContent(/^\$30\.30$/));
    expect(top).toHaveTextContent('$30.00');
  });

  it('writes the reward value of campaigns in several currencies as a plain number, and says why; each campaign in its own', async () => {
    const dollars = campaign({ id: 'cmp_usd', name: 'Dollars' });
    const euros = campaign({ id: 'cmp_eur', name: 'Euros', currency: 'EUR' });
    const stats = { ...ZERO_STATS, totalRewardValue: 12.5 };
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [dollars, euros], pagination: page(2) } })
      .on('GET', '/api/v1/stats/timeseries', (r) => ({ body: { campaignId: null, interval: 'day', from: r.query.get('from'), to: r.query.get('to'), buckets } }))
      .on('GET', '/api/v1/stats/campaigns', { body: { campaigns: [dollars, euros].map((c) => ({ campaign: c, stats })), totals: stats, pagination: page(2) } })
      .on('GET', '/api/v1/stats/top-referrers', { body: { from: '', to: '', referrers: [{ userId: 'ann', conversions: 3, rewardValue: 30 }] } });
    renderApp('/apps/app_1/overview?campaignId=all&days=7', { session: sessionFor('VIEWER'), api });
    await waitFor(() => expect(screen.getByLabelText('Reward value')).toHaveTextContent(/^30\.3$/));
    expect(screen.getByText(/several currencies/)).toBeInTheDocument();
    const side = await screen.findByRole('table', { name: "Campaigns' figures" });
    expect(side).toHaveTextContent('$12.50');
    expect(side).toHaveTextContent('€12.50');
    expect(await screen.findByRole('table', { name: 'Top referrers' })).toHaveTextContent(/ann3\s*30$/);
  });
});

const engineBucket = (start: string, coinsIssued: number, coinsRedeemed: number): EngineBucket => ({
  start,
  events: 4,
  activeUsers: 2,
  coinsIssued,
  coinsRedeemed,
  tokensIssued: 1,
  tokensRedeemed: 0,
  xpIssued: 100,
  redemptions: coinsRedeemed > 0 ? 1 : 0,
  coinsExpired: 0,
  tokensExpired: 0,
  coinsReversed: 0,
  tokensReversed: 0,
});

describe('the incentive engine on the overview', () => {
  it('charts coins and tokens issued against redeemed per day, and an action’s activity, from the series', () => {
    const points = engineChartPoints([engineBucket('2026-11-23T00:00:00.000Z', 120, 0), engineBucket('2026-11-24T00:00:00.000Z', 40, -30)]);
    expect(points.map((p) => [p.date, p['Coins issued'], p['Coins redeemed'], p['Tokens issued']])).toEqual([
      ['2026-11-23', 120, 0, 1],
      ['2026-11-24', 40, -30, 1],
    ]);
    const action = [{ start: '2026-11-24T10:00:00.000Z', events: 3, rewardedEvents: 2, coins: 10, xp: 20, tokens: 0 }];
    expect(actionChartPoints(action, 'hour')[0]).toEqual({ date: '11-24 10:00', Events: 3, Rewarded: 2, Coins: 10, XP: 20, Tokens: 0 });
    expect(actionTotals(action)).toEqual({ events: 3, rewardedEvents: 2, coins: 10, xp: 20, tokens: 0 });
  });

  it('shows the engine’s totals for the period, with or without campaigns: issued, redeemed, expired and reversed', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns', { body: { campaigns: [], pagination: page(0) } })
      .on('GET', '/api/v1/incentives/stats/timeseries', (r) => ({
        body: {
          interval: 'day',
          from: r.query.get('from'),
          to: r.query.get('to'),
          totals: {
            events: 12,
            activeUsers: 5,
            coinsIssued: 900,
            coinsRedeemed: 300,
            tokensIssued: 4,
            tokensRedeemed: 2,
            xpIssued: 1500,
            redemptions: 3,
            coinsExpired: 40,
            tokensExpired: 1,
            coinsReversed: 1250,
            tokensReversed: 0,
          },
          buckets: [engineBucket('2026-11-24T00:00:00.000Z', 900, 300)],
        },
      }));
    renderApp('/apps/app_1/overview?days=90', { session: sessionFor('VIEWER'), api });
    expect(await screen.findByText('No campaigns yet')).toBeInTheDocument();
    expect(await screen.findByLabelText('Active users')).toHaveTextContent('5');
    expect(screen.getByLabelText('Coins issued')).toHaveTextContent('900');
    expect(screen.getByLabelText('Coins redeemed')).toHaveTextContent('300');
    expect(screen.getByLabelText('Redemptions')).toHaveTextContent('3');
    // What lapsed under the app's expiry settings, and what reversals took back.
    expect(screen.getByLabelText('Coins expired')).toHaveTextContent('40');
    expect(screen.getByLabelText('Coins reversed')).toHaveTextContent('1,250');
    expect(screen.getByLabelText('Tokens expired')).toHaveTextContent('1');
    expect(screen.getByLabelText('Tokens reversed')).toHaveTextContent('0');
    const sent = api.sent('GET', '/api/v1/incentives/stats/timeseries')[0]!.query;
    expect(Date.parse(sent.get('to')!) - Date.parse(sent.get('from')!)).toBe(90 * 86_400_000);
  });
});
