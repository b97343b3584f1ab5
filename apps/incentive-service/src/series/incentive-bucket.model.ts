import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames, type TimeBucketTarget } from '@ris/mongo';
import type { IncentiveBucketRepository } from './incentive-bucket.repository';

/** An action's figures in a bucket (GET /incentives/actions/{key}/timeseries). */
export interface ActionCounts {
  /** Events recorded of the action, rewarded or not (duplicates are not events). */
  events?: number;
  rewardedEvents?: number;
  coins?: number;
  xp?: number;
  tokens?: number;
}

/** The app's engine figures in a bucket (GET /incentives/stats/timeseries; incentive-series.ts defines each). */
export interface EngineCounts {
  events?: number;
  activeUsers?: number;
  coinsIssued?: number;
  coinsRedeemed?: number;
  tokensIssued?: number;
  tokensRedeemed?: number;
  xpIssued?: number;
  redemptions?: number;
  coinsExpired?: number;
  tokensExpired?: number;
  coinsReversed?: number;
  tokensReversed?: number;
}

/**
 * One UTC hour or day of an action's figures (subject `action:<key>`) or of
 * the app's engine figures (subject `engine`), kept on write: every event
 * recorded and every ledger entry written increments its hour's document
 * and its day's (libs/mongo time-buckets). Small documents, one per
 * subject and bucket, as time-buckets explains.
 */
export interface IncentiveBucketDoc extends ActionCounts, EngineCounts, Omit<TimeBucketTarget, '_id'> {
  /** `<appId>:<subject>:<YYYY-MM-DDTHH>` or `…:<YYYY-MM-DD>` (action keys have no ":"): every increment goes by it. */
  _id: string;
  appId: string;
  subject: string;
}

const counter = { type: Number };

const incentiveBucketSchema = new Schema<IncentiveBucketDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    subject: { type: String, required: true },
    interval: { type: String, required: true },
    start: { type: Date, required: true },
    partition: { type: String, required: true },
    events: counter,
    rewardedEvents: counter,
    coins: counter,
    xp: counter,
    tokens: counter,
    activeUsers: counter,
    coinsIssued: counter,
    coinsRedeemed: counter,
    tokensIssued: counter,
    tokensRedeemed: counter,
    xpIssued: counter,
    redemptions: counter,
    coinsExpired: counter,
    tokensExpired: counter,
    coinsReversed: counter,
    tokensReversed: counter,
  },
  { collection: 'incentive_buckets', versionKey: false },
);
declareIndexes<QueryNames<IncentiveBucketRepository>>(incentiveBucketSchema, [
  {
    keys: { appId: 1, subject: 1, interval: 1, partition: 1, start: 1 },
    serves: ['inPartition'],
    why: "the timeseries reads: a subject's hours of one day (or days of one month) in a range of start, in order; increments go by _id",
  },
]);

export const incentiveBucketModel = (db: Connection): Model<IncentiveBucketDoc> =>
  (db.models.IncentiveBucket as Model<IncentiveBucketDoc> | undefined) ?? db.model<IncentiveBucketDoc>('IncentiveBucket', incentiveBucketSchema);
