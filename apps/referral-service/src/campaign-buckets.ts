import type { Connection } from 'mongoose';
import { AppScoped, DocumentWriteQueue } from '@ris/mongo';
import { Code, rpcError } from '@ris/rpc';
import { BUCKET_FIELDS, campaignBucketModel, counterOf, type BucketCounts, type CampaignBucketDoc } from './campaign-bucket.model';

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
  /** Documents found: none means the campaign counted nothing in the range (or is another app's). */
  stored: number;
}

/** Where one moment's counts go: a document, its fields on insert, and the prefix of its counters there. */
export interface BucketTarget {
  _id: string;
  interval: CampaignBucketDoc['interval'];
  start: Date;
  partition: string;
  /** `h13` in a day's hour document, `d04` in a month's day document. */
  key: string;
}

const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
/** 00:00 UTC of the first day of the month of `ms` (without Date.UTC, which reads years 0 to 99 as 19xx). */
function monthStart(ms: number): number {
  const date = new Date(dayStart(ms));
  date.setUTCDate(1);
  return date.getTime();
}
const two = (n: number) => String(n).padStart(2, '0');

/** The two documents a moment counts in, UTC: its day's hours and its month's days. */
export function bucketTargets(campaignId: string, at: Date): [BucketTarget, BucketTarget] {
  const day = new Date(dayStart(at.getTime()));
  const iso = day.toISOString();
  return [
    { _id: `${campaignId}:${iso.slice(0, 10)}`, interval: 'hour', start: day, partition: iso.slice(0, 7), key: `h${two(Math.floor((at.getTime() - day.getTime()) / HOUR_MS))}` },
    { _id: `${campaignId}:${iso.slice(0, 7)}`, interval: 'day', start: new Date(monthStart(day.getTime())), partition: iso.slice(0, 4), key: `d${two(day.getUTCDate())}` },
  ];
}

/** The $inc of `counts` under a target's key: `{ h13_clicks: 3 }`. */
export function bucketIncrement(key: string, counts: BucketCounts): Record<string, number> {
  const inc: Record<string, number> = {};
  for (const field of BUCKET_FIELDS) {
    const amount = counts[field];
    if (amount) inc[`${key}_${field}`] = amount;
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
  // Today's hours and this month's days take every write of the campaign,
  // as its totals do: coalesced, and serial per process (FerretDB runs $inc
  // as a read and a write).
  private readonly increments: DocumentWriteQueue<CampaignBucketDoc>;

  constructor(db: Connection) {
    this.buckets = new AppScoped(campaignBucketModel(db));
    this.increments = new DocumentWriteQueue(this.buckets);
  }

  /** Adds `counts` to the hour and the day of `at`: two increments, side by side. */
  async count(appId: string, campaignId: string, at: Date, counts: BucketCounts): Promise<void> {
    await Promise.all(
      bucketTargets(campaignId, at).map(({ _id, key, ...fields }) => {
        const inc = bucketIncrement(key, counts);
        return Object.keys(inc).length === 0 ? undefined : this.increments.increment(appId, { _id }, inc, { campaignId, ...fields });
      }),
    );
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

    // An hour is in its day's document, a day in its month's.
    const docStart = interval === 'HOUR' ? dayStart : monthStart;
    const docs = await this.documents(appId, campaignId, interval === 'HOUR' ? 'hour' : 'day', docStart(start), docStart(end - 1));
    const buckets: Bucket[] = [];
    for (let at = start; at < end; at += size) {
      const doc = docs.get(docStart(at));
      const key = interval === 'HOUR' ? `h${two((at - dayStart(at)) / HOUR_MS)}` : `d${two(new Date(at).getUTCDate())}`;
      buckets.push({
        start: new Date(at),
        referrals: counterOf(doc, `${key}_referrals`),
        clicks: counterOf(doc, `${key}_clicks`),
        conversions: counterOf(doc, `${key}_conversions`),
        rewardValue: counterOf(doc, `${key}_rewardValue`),
      });
    }
    return { buckets, from: new Date(start), to: new Date(end), stored: docs.size };
  }

  /**
   * The campaign's documents of one interval whose start is in [first,
   * last], by start: one indexed query per partition (month or year) the
   * range touches: for what series() allows, at most three months (31 days
   * from the end of January reach into March) or two years.
   */
  private async documents(appId: string, campaignId: string, interval: CampaignBucketDoc['interval'], first: number, last: number): Promise<Map<number, CampaignBucketDoc>> {
    const partitions = new Set<string>();
    // Day documents one day apart; month documents: a day past the month's last day is the next month.
    for (let at = first; at <= last; at = interval === 'hour' ? at + DAY_MS : monthStart(at + 31 * DAY_MS)) {
      partitions.add(new Date(at).toISOString().slice(0, interval === 'hour' ? 7 : 4));
    }
    const found = await Promise.all(
      [...partitions].map((partition) =>
        this.buckets.find(appId, { campaignId, interval, partition, start: { $gte: new Date(first), $lte: new Date(last) } }, { sort: { start: 1 } }),
      ),
    );
    return new Map(found.flat().map((doc) => [doc.start.getTime(), doc]));
  }
}
