import type { EnumName, TimeseriesInterval } from '@ris/contracts';
import { readSeries, seriesRange, timeBucketTargets, type SeriesRange, type TimeBucketTarget } from '@ris/mongo';
import type { BucketCounts, CampaignBucketDoc } from './campaign-bucket.model';
import type { CampaignBucketRepository } from './campaign-bucket.repository';

/** HOUR or DAY: the names of the contract's TimeseriesInterval. */
export type BucketInterval = EnumName<typeof TimeseriesInterval>;

export type Bucket = { start: Date } & Required<BucketCounts>;

export interface Series {
  buckets: Bucket[];
  /** Start of the first bucket, end of the last. */
  from: Date;
  to: Date;
  /** Documents found: none means the campaign counted nothing in the range (or is another app's). */
  stored: number;
}

/** The two documents a moment counts in, UTC: its hour's and its day's (libs/mongo time-buckets). */
export const bucketTargets = (campaignId: string, at: Date): [TimeBucketTarget, TimeBucketTarget] => timeBucketTargets(campaignId, at);

/** What a bucket counts, in the order of its document. */
const BUCKET_FIELDS = ['referrals', 'clicks', 'conversions', 'rewardValue', 'reversals'] as const;

/** The $inc of `counts`: its non-zero counters. */
export function bucketIncrement(counts: BucketCounts): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const field of BUCKET_FIELDS) if (counts[field]) inc[field] = counts[field];
  return inc;
}

/** Every bucket of the range, zeros included, each the sum of the documents `docsAt` gives for its start. */
function seriesOf(range: SeriesRange, docsAt: (start: number) => Array<CampaignBucketDoc | undefined>): Omit<Series, 'stored'> {
  const buckets = range.starts.map((start): Bucket => {
    const bucket: Bucket = { start, referrals: 0, clicks: 0, conversions: 0, rewardValue: 0, reversals: 0 };
    for (const doc of docsAt(start.getTime())) for (const field of BUCKET_FIELDS) bucket[field] += doc?.[field] ?? 0;
    return bucket;
  });
  return { buckets, from: range.start, to: range.end };
}

/**
 * A campaign's counters per UTC hour and day (campaign-bucket.model.ts):
 * incremented with the campaign totals by CampaignStats, read as a series.
 */
export class CampaignBuckets {
  constructor(private readonly buckets: CampaignBucketRepository) {}

  /** Adds `counts` to the hour and the day of `at`: two increments, side by side. */
  async count(appId: string, campaignId: string, at: Date, counts: BucketCounts): Promise<void> {
    const inc = bucketIncrement(counts);
    if (Object.keys(inc).length === 0) return;
    await Promise.all(bucketTargets(campaignId, at).map(({ _id, ...fields }) => this.buckets.add(appId, _id, { campaignId, ...fields }, inc)));
  }

  /**
   * Every bucket that overlaps [from, to), zeros included (the range rules
   * and INVALID_RANGE: seriesRange), read one partition per query.
   */
  async series(appId: string, campaignId: string, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    const range = seriesRange(interval, from, to);
    const docs = await readSeries(range, (partition, start, end) =>
      this.buckets.inPartition(appId, { campaignId, interval: range.interval, partition }, start, end),
    );
    return { ...seriesOf(range, (start) => [docs.get(start)]), stored: docs.size };
  }

  /** series() of every campaign of the app, summed bucket by bucket (one query a partition for all of them). */
  async appSeries(appId: string, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    const range = seriesRange(interval, from, to);
    const found = await Promise.all(range.partitions.map((partition) => this.buckets.inAppPartition(appId, { interval: range.interval, partition }, range.start, range.end)));
    const byStart = new Map<number, CampaignBucketDoc[]>();
    for (const doc of found.flat()) byStart.set(doc.start.getTime(), [...(byStart.get(doc.start.getTime()) ?? []), doc]);
    return { ...seriesOf(range, (start) => byStart.get(start) ?? []), stored: found.flat().length };
  }
}
