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
 * A campaign's counters for one UTC day, with that day's 24 hours inside
 * (`hours.h00` … `hours.h23`), kept on write beside the campaign totals
 * (campaign_stats) so GET /stats/timeseries reads at most 32 documents for
 * an hourly range of 31 days and 366 for a daily range of a year, however
 * many referrals, clicks and conversions the campaign has.
 *
 * One document per day rather than one per hour and one per day: a write
 * then costs one more increment (of the day and its hour together), not
 * two. Days and hours are UTC, so a bucket never depends on the reader's
 * time zone.
 */
export interface CampaignBucketDoc extends BucketCounts {
  /** `<campaignId>:<YYYY-MM-DD>`: every increment goes by it. */
  _id: string;
  appId: string;
  campaignId: string;
  /** 00:00 UTC of the day. */
  day: Date;
  /**
   * The UTC year of `day`: reads ask for it by equality (a range spans at
   * most two years), which FerretDB answers from the index; it filters a
   * range of `day` itself, unindexed.
   */
  year: number;
  hours?: Record<string, BucketCounts>;
}

const campaignBucketSchema = new Schema<CampaignBucketDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    day: { type: Date, required: true },
    year: { type: Number, required: true },
    referrals: { type: Number },
    clicks: { type: Number },
    conversions: { type: Number },
    rewardValue: { type: Number },
    hours: { type: Schema.Types.Mixed },
  },
  { collection: 'campaign_buckets', versionKey: false },
);
// GET /stats/timeseries: a campaign's days of one year in a range of days,
// in order (one query per year the range touches). Increments go by _id.
campaignBucketSchema.index({ appId: 1, campaignId: 1, year: 1, day: 1 });

export const campaignBucketModel = (db: Connection): Model<CampaignBucketDoc> =>
  (db.models.CampaignBucket as Model<CampaignBucketDoc> | undefined) ?? db.model<CampaignBucketDoc>('CampaignBucket', campaignBucketSchema);
