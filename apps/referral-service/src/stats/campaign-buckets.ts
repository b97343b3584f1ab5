import type { EnumName, TimeseriesInterval } from '@ris/contracts';
import { refused } from '@ris/domain-errors';
import type { BucketCounts, CampaignBucketDoc } from './campaign-bucket.model';
import type { CampaignBucketRepository } from './campaign-bucket.repository';

/** HOUR or DAY: the names of the contract's TimeseriesInterval. */
export type BucketInterval = EnumName<typeof TimeseriesInterval>;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const INTERVAL_MS: Record<BucketInterval, number> = { HOUR: HOUR_MS, DAY: DAY_MS };
/** 31 days of hours, 366 days: what one read may ask for. */
export const MAX_BUCKETS: Record<BucketInterval, number> = { HOUR: 744, DAY: 366 };
/** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years a timestamp (and an ISO 8601 date) can say. */
const EARLIEST = -62_135_596_800_000;
const LATEST = 253_402_300_800_000;

export type Bucket = { start: Date } & Required<BucketCounts>;

export interface Series {
  buckets: Bucket[];
  /** Start of the first bucket, end of the last. */
  from: Date;
  to: Date;
  /** Documents found: none means the campaign counted nothing in the range (or is another app's). */
  stored: number;
}

/** A bucket document a moment counts in: its _id and what it is created with. */
export type BucketTarget = Pick<CampaignBucketDoc, '_id' | 'interval' | 'start' | 'partition'>;

const floorTo = (ms: number, size: number) => Math.floor(ms / size) * size;
const iso = (ms: number) => new Date(ms).toISOString();
/** An hour's partition is its day, a day's its month. */
const partitionOf = (interval: CampaignBucketDoc['interval'], start: number) => iso(start).slice(0, interval === 'hour' ? 10 : 7);

/** The two documents a moment counts in, UTC: its hour's and its day's. */
export function bucketTargets(campaignId: string, at: Date): [BucketTarget, BucketTarget] {
  const hour = floorTo(at.getTime(), HOUR_MS);
  const day = floorTo(at.getTime(), DAY_MS);
  return [
    { _id: `${campaignId}:${iso(hour).slice(0, 13)}`, interval: 'hour', start: new Date(hour), partition: partitionOf('hour', hour) },
    { _id: `${campaignId}:${iso(day).slice(0, 10)}`, interval: 'day', start: new Date(day), partition: partitionOf('day', day) },
  ];
}

/** What a bucket counts, in the order of its document. */
const BUCKET_FIELDS = ['referrals', 'clicks', 'conversions', 'rewardValue'] as const;

/** The $inc of `counts`: its non-zero counters. */
export function bucketIncrement(counts: BucketCounts): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const field of BUCKET_FIELDS) if (counts[field]) inc[field] = counts[field];
  return inc;
}

const invalidRange = (message: string) => refused('INVALID_RANGE', message);

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
   * Every bucket that overlaps [from, to), zeros included. Refused
   * (INVALID_RANGE) when `to` is not after `from`, the range holds more than
   * MAX_BUCKETS, or it leaves the years 0001 to 9999.
   */
  async series(appId: string, campaignId: string, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    const size = INTERVAL_MS[interval];
    if (!(to.getTime() > from.getTime())) throw invalidRange('to must be after from.');
    const start = floorTo(from.getTime(), size);
    const end = Math.ceil(to.getTime() / size) * size;
    if (start < EARLIEST || end > LATEST) throw invalidRange('from and to must fall within the years 0001 to 9999 (UTC).');
    const count = (end - start) / size;
    if (count > MAX_BUCKETS[interval]) {
      throw invalidRange(`At most ${MAX_BUCKETS[interval]} ${interval === 'HOUR' ? 'hourly' : 'daily'} buckets per read; this range holds ${count}.`);
    }

    const docs = await this.documents(appId, campaignId, interval === 'HOUR' ? 'hour' : 'day', start, end);
    const buckets: Bucket[] = [];
    for (let at = start; at < end; at += size) {
      const doc = docs.get(at);
      buckets.push({
        start: new Date(at),
        referrals: doc?.referrals ?? 0,
        clicks: doc?.clicks ?? 0,
        conversions: doc?.conversions ?? 0,
        rewardValue: doc?.rewardValue ?? 0,
      });
    }
    return { buckets, from: new Date(start), to: new Date(end), stored: docs.size };
  }

  /**
   * The campaign's documents of one interval in [start, end), by start:
   * one indexed query per partition the range touches (at most 32 days for
   * hours, 13 months for days), side by side. Each finds only what it
   * answers: FerretDB reads every document of the partition, so a
   * partition is no larger than the bucket above.
   */
  private async documents(appId: string, campaignId: string, interval: CampaignBucketDoc['interval'], start: number, end: number): Promise<Map<number, CampaignBucketDoc>> {
    const partitions = new Set<string>();
    // A partition per day of the range (hours), or per month (days: each day of it, as a month's length varies).
    for (let at = floorTo(start, DAY_MS); at < end; at += DAY_MS) partitions.add(partitionOf(interval, at));
    const found = await Promise.all(
      [...partitions].map((partition) =>
        this.buckets.inPartition(appId, { campaignId, interval, partition }, new Date(start), new Date(end)),
      ),
    );
    return new Map(found.flat().map((doc) => [doc.start.getTime(), doc]));
  }
}
