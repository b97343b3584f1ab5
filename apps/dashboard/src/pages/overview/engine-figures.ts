import type { ActionBucket, EngineBucket } from '../../api/types';
import { seriesPoints } from './overview-figures';

/** The engine's chart: coins and tokens issued against redeemed (net of refunds) per bucket. */
export function engineChartPoints(buckets: readonly EngineBucket[], interval: 'day' | 'hour' = 'day') {
  return seriesPoints(
    buckets,
    {
      'Coins issued': (b) => b.coinsIssued,
      'Coins redeemed': (b) => b.coinsRedeemed,
      'Tokens issued': (b) => b.tokensIssued,
      'Tokens redeemed': (b) => b.tokensRedeemed,
    },
    interval,
  );
}

/** An action's chart: how often it was performed (rewarded or not) and what it paid out, per bucket. */
export function actionChartPoints(buckets: readonly ActionBucket[], interval: 'day' | 'hour' = 'day') {
  return seriesPoints(
    buckets,
    { Events: (b) => b.events, Rewarded: (b) => b.rewardedEvents, Coins: (b) => b.coins, XP: (b) => b.xp, Tokens: (b) => b.tokens },
    interval,
  );
}

/** What an action did over a period: the buckets added up. */
export function actionTotals(buckets: readonly ActionBucket[]) {
  const sum = (pick: (b: ActionBucket) => number) => buckets.reduce((total, b) => total + pick(b), 0);
  return { events: sum((b) => b.events), rewardedEvents: sum((b) => b.rewardedEvents), coins: sum((b) => b.coins), xp: sum((b) => b.xp), tokens: sum((b) => b.tokens) };
}
