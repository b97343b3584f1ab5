import type { ActionBucket, EngineBucket, EngineFigures, GetActionTimeseriesResponse, GetEngineTimeseriesResponse } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { seriesBounds, type SeriesIntervalName } from '../openapi/series-query';
import { z } from '../openapi/zod';
import { entity, from, time } from './entity';

const start = time(timestamp.openapi({ description: 'Start of the UTC hour or day' }));
const count = (description: string) => z.number().int().openapi({ description });

/** One hour or day of an action (GET /incentives/actions/{key}/timeseries). */
const ActionBucketShape = entity<ActionBucket>()('IncentiveActionBucket', {
  start,
  events: count('Events of the action recorded in the bucket, rewarded or not (a repeated idempotencyKey is not a new event)'),
  rewardedEvents: count('Those of them that earned their reward (not refused for cooldown, maxRepeats or a disabled action)'),
  coins: z.number().openapi({ description: 'Coins the rewarded events paid out' }),
  xp: z.number().openapi({ description: 'XP they paid out (what fitted: a user’s XP stops at 2^53 − 1)' }),
  tokens: z.number().openapi({ description: 'Tokens they paid out' }),
});

type ActionSeries = GetActionTimeseriesResponse & { actionKey: string; interval: SeriesIntervalName };

export const ActionTimeseries = entity<ActionSeries>()('IncentiveActionTimeseries', {
  actionKey: z.string(),
  interval: z.enum(['hour', 'day']),
  from: time(seriesBounds.from),
  to: time(seriesBounds.to),
  buckets: from(z.array(ActionBucketShape.schema).openapi({ description: 'Every bucket of the range, oldest first, zeros included' }), (s: ActionSeries) =>
    s.buckets.map(ActionBucketShape.json),
  ),
});

/** The figures, each defined once: a bucket's, and the range's totals. */
const figures = {
  events: count('Events recorded (every action, rewarded or not; a repeated idempotencyKey is not a new event)'),
  activeUsers: count(
    'Distinct users with at least one recorded event: in a bucket, in its hour or day; in the totals, over the whole range (not the sum of the buckets)',
  ),
  coinsIssued: z.number().openapi({
    description:
      'Coins credited as earnings or grants: action rewards, level and milestone rewards, manual adjustments that add, recorded scores (POST /incentives/leaderboard) that raise them. Refunds are not issued: they lower coinsRedeemed',
  }),
  coinsRedeemed: z.number().openapi({
    description:
      'Coins taken by catalog and marketplace redemptions, less the refunds of cancelled ones, each in the bucket it happened in (so a bucket with more refunds than redemptions is negative)',
  }),
  tokensIssued: z.number().openapi({ description: 'Tokens credited, as coinsIssued' }),
  tokensRedeemed: z.number().openapi({ description: 'Tokens taken by redemptions less their refunds, as coinsRedeemed' }),
  xpIssued: z.number().openapi({ description: 'XP credited, as coinsIssued (what adjustments and recorded scores take away is not subtracted)' }),
  redemptions: count('Catalog and marketplace redemptions whose debit was applied in the bucket (a later cancellation does not take one back)'),
  coinsExpired: z.number().openapi({ description: 'Coins that lapsed (the app\u2019s coinExpiryDays): EXPIRY ledger entries' }),
  tokensExpired: z.number().openapi({ description: 'Tokens that lapsed, as coinsExpired' }),
  coinsReversed: z.number().openapi({ description: 'Coins taken back by reversals of conversions and events (a part owed as debt is not in it)' }),
  tokensReversed: z.number().openapi({ description: 'Tokens taken back by reversals, as coinsReversed' }),
};

const EngineTotals = entity<EngineFigures>()('IncentiveEngineFigures', figures);

type FlatEngineBucket = EngineFigures & Pick<EngineBucket, 'start'>;
const EngineBucketShape = entity<FlatEngineBucket>()('IncentiveEngineBucket', { start, ...figures });

type EngineSeries = GetEngineTimeseriesResponse & { interval: SeriesIntervalName };

export const EngineTimeseries = entity<EngineSeries>()('IncentiveEngineTimeseries', {
  interval: z.enum(['hour', 'day']),
  from: time(seriesBounds.from),
  to: time(seriesBounds.to),
  totals: from(EngineTotals.schema.openapi({ description: 'Over the whole range' }), (s: EngineSeries) => EngineTotals.json(s.totals!)),
  buckets: from(z.array(EngineBucketShape.schema).openapi({ description: 'Every bucket of the range, oldest first, zeros included' }), (s: EngineSeries) =>
    s.buckets.map((b) => EngineBucketShape.json({ ...b.figures!, start: b.start })),
  ),
});

export const actionTimeseriesJson = (actionKey: string, interval: SeriesIntervalName, series: GetActionTimeseriesResponse) =>
  ActionTimeseries.json({ ...series, actionKey, interval });
export const engineTimeseriesJson = (interval: SeriesIntervalName, series: GetEngineTimeseriesResponse) => EngineTimeseries.json({ ...series, interval });
