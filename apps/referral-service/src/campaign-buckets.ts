import type { Connection } from 'mongoose';
import { AppScoped, DocumentWriteQueue } from '@ris/mongo';
import { Code, rpcError } from '@ris/rpc';
import { BUCKET_FIELDS, campaignBucketModel, type BucketCounts, type CampaignBucketDoc } from './campaign-bucket.model';

export type BucketInterval = 'HOUR' | 'DAY';

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
  /** Day documents found: none means the campaign never counted anything in the range (or is another app's). */
  stored: number;
}

/** The day document and the hour a moment counts in, UTC. */
export function bucketOf(campaignId: string, at: Date): { _id: string; day: Date; year: number; hour: string } {
  const ms = at.getTime();
  const dayStart = Math.floor(ms / DAY_MS) * DAY_MS;
  const day = new Date(dayStart);
  const hour = `h${String(Math.floor((ms - dayStart) / HOUR_MS)).padStart(2, '0')}`;
  return { _id: `${campaignId}:${day.toISOString().slice(0, 10)}`, day, year: day.getUTCFullYear(), hour };
}

/** The $inc of a day document for `counts` at `hour`: the day's counters and the hour's. */
export function bucketIncrement(hour: string, counts: BucketCounts): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const field of BUCKET_FIELDS) {
    const amount = counts[field];
    if (!amount) continue;
    inc[field] = amount;
    inc[`hours.${hour}.${field}`] = amount;
  }
  return inc;
}

const invalidRange = (message: string) => rpcError(Code.FailedPrecondition, 'INVALID_RANGE', message);

/**
 * A campaign's counters per UTC hour and day (campaign-bucket.model.ts):
 * incremented with the campaign totals by CampaignStats, read as a series.
 */
export class CampaignBuckets {
  readonly buckets: AppScoped<CampaignBucketDoc>;
  // Today's document takes every write of the campaign, as its totals do:
  // coalesced, and serial per process (FerretDB runs $inc as a read and a write).
  private readonly increments: DocumentWriteQueue<CampaignBucketDoc>;

  constructor(db: Connection) {
    this.buckets = new AppScoped(campaignBucketModel(db));
    this.increments = new DocumentWriteQueue(this.buckets);
  }

  count(appId: string, campaignId: string, at: Date, counts: BucketCounts): Promise<void> {
    const bucket = bucketOf(campaignId, at);
    const inc = bucketIncrement(bucket.hour, counts);
    if (Object.keys(inc).length === 0) return Promise.resolve();
    return this.increments.increment(appId, { _id: bucket._id }, inc, { campaignId, day: bucket.day, year: bucket.year });
  }

  /**
   * Every bucket that overlaps [from, to), zeros included. Refused
   * (INVALID_RANGE) when `to` is not after `from`, the range holds more than
   * MAX_BUCKETS, or it leaves the years 0001 to 9999.
   */
  async series(appId: string, campaignId: string, interval: BucketInterval, from: Date, to: Date): Promise<Series> {
    const size = INTERVAL_MS[interval];
    if (!(to.getTime() > from.getTime())) throw invalidRange('to must be after from.');
    const start = Math.floor(from.getTime() / size) * size;
    const end = Math.ceil(to.getTime() / size) * size;
    if (start < EARLIEST || end > LATEST) throw invalidRange('from and to must fall within the years 0001 to 9999 (UTC).');
    const count = (end - start) / size;
    if (count > MAX_BUCKETS[interval]) {
      throw invalidRange(`At most ${MAX_BUCKETS[interval]} ${interval === 'HOUR' ? 'hourly' : 'daily'} buckets per read; this range holds ${count}.`);
    }

    const days = await this.days(appId, campaignId, start, end);
    const buckets: Bucket[] = [];
    for (let at = start; at < end; at += size) {
      const dayStart = Math.floor(at / DAY_MS) * DAY_MS;
      const doc = days.get(dayStart);
      const counts = interval === 'DAY' ? doc : doc?.hours?.[`h${String((at - dayStart) / HOUR_MS).padStart(2, '0')}`];
      buckets.push({
        start: new Date(at),
        referrals: counts?.referrals ?? 0,
        clicks: counts?.clicks ?? 0,
        conversions: counts?.conversions ?? 0,
        rewardValue: counts?.rewardValue ?? 0,
      });
    }
    return { buckets, from: new Date(start), to: new Date(end), stored: days.size };
  }

  /** The day documents of [start, end), by day: one indexed query per year the range touches (at most two). */
  private async days(appId: string, campaignId: string, start: number, end: number): Promise<Map<number, CampaignBucketDoc>> {
    const firstDay = Math.floor(start / DAY_MS) * DAY_MS;
    const lastDay = Math.floor((end - 1) / DAY_MS) * DAY_MS;
    const years: number[] = [];
    for (let year = new Date(firstDay).getUTCFullYear(); year <= new Date(lastDay).getUTCFullYear(); year += 1) years.push(year);
    const found = await Promise.all(
      years.map((year) =>
        this.buckets.find(appId, { campaignId, year, day: { $gte: new Date(firstDay), $lte: new Date(lastDay) } }, { sort: { day: 1 } }),
      ),
    );
    return new Map(found.flat().map((doc) => [doc.day.getTime(), doc]));
  }
}
