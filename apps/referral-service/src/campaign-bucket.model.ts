import { Schema, type Connection, type Model } from 'mongoose';

/** What a bucket counts: the campaign totals' counters, for the writes of one hour or day. */
export interface BucketCounts {
  referrals?: number;
  clicks?: number;
  /** Level-1 conversions (flagged ones included), at their conversion time. */
  conversions?: number;
  /** The value of the rewards of the conversions counted here, less those cancelled. */
  rewardValue?: number;
}

export const BUCKET_FIELDS = ['referrals', 'clicks', 'conversions', 'rewardValue'] as const;
export type BucketField = (typeof BUCKET_FIELDS)[number];

/**
 * A campaign's counters per UTC hour and day, kept on write beside its
 * totals (campaign_stats), in two kinds of document:
 *
 * - `interval: 'hour'`: the 24 hours of one UTC day, `_id`
 *   `<campaignId>:<YYYY-MM-DD>`, counters `h00_clicks` … `h23_rewardValue`;
 * - `interval: 'day'`: the days of one UTC month, `_id`
 *   `<campaignId>:<YYYY-MM>`, counters `d01_clicks` … `d31_rewardValue`.
 *
 * So GET /stats/timeseries reads at most 32 documents for 744 hours and 13
 * for 366 days, however large the campaign, and a write costs two
 * increments (its day's hours, its month's days). The counters are flat
 * fields, not a sub-document per hour: FerretDB v1 decodes every field of
 * every document it reads, sub-documents dearest, and measured here a
 * year of days with their hours nested inside cost about 450 ms to read
 * against ~10 ms for these. Hours and days are UTC, so a bucket never
 * depends on the reader's time zone.
 */
export interface CampaignBucketDoc {
  _id: string;
  appId: string;
  campaignId: string;
  interval: 'hour' | 'day';
  /** 00:00 UTC of the day (hour documents) or of the month's first day (day documents). */
  start: Date;
  /**
   * The month (`YYYY-MM`) of an hour document, the year (`YYYY`) of a day
   * document: reads ask for it by equality (a range touches at most two),
   * which FerretDB answers from the index; it filters `start` itself.
   */
  partition: string;
  // And the counters, `h13_clicks`, `d04_rewardValue`, …, absent until counted: read with counterOf().
}

/** A counter of a bucket document (`h13_clicks`), 0 when never counted. */
export const counterOf = (doc: CampaignBucketDoc | undefined, name: string): number =>
  ((doc as unknown as Record<string, number | undefined> | undefined)?.[name]) ?? 0;

const campaignBucketSchema = new Schema<CampaignBucketDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    interval: { type: String, required: true },
    start: { type: Date, required: true },
    partition: { type: String, required: true },
  },
  // The counters are named by their hour or day: not declared, so not stripped from the increments.
  { collection: 'campaign_buckets', versionKey: false, strict: false },
);
// GET /stats/timeseries: a campaign's hour (or day) documents of one month
// (or year) in a range of start, in order: one query per partition the
// range touches. Increments go by _id.
campaignBucketSchema.index({ appId: 1, campaignId: 1, interval: 1, partition: 1, start: 1 });

export const campaignBucketModel = (db: Connection): Model<CampaignBucketDoc> =>
  (db.models.CampaignBucket as Model<CampaignBucketDoc> | undefined) ?? db.model<CampaignBucketDoc>('CampaignBucket', campaignBucketSchema);
