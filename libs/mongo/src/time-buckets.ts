import { refused } from '@ris/domain-errors';

/**
 * Counters kept on write per UTC hour and per UTC day (a campaign's
 * referrals and clicks, an action's events, an app's coins issued): each
 * counted write increments its hour's document and its day's, and a series
 * is read as at most 744 hour documents or 366 day documents, whatever the
 * volume behind them. Hours and days are UTC, so a bucket never depends on
 * the reader's time zone.
 *
 * Small documents on purpose: FerretDB v1 runs an update as a read and a
 * rewrite of the whole document; one per hour and subject keeps each
 * increment cheap. A document's `partition` is the UTC day of an hour or
 * the month of a day: reads ask for each partition of the range by
 * equality, which FerretDB answers from the index (it filters a range of
 * `start` itself, after reading every document the equality finds).
 */

/** HOUR or DAY: the names of the contract's TimeseriesInterval. */
export type SeriesInterval = 'HOUR' | 'DAY';
/** How a bucket document names its interval. */
export type StoredInterval = 'hour' | 'day';

/** A bucket document a moment counts in: its _id and what it is created with. */
export interface TimeBucketTarget {
  /** `<subject>:<YYYY-MM-DDTHH>` (an hour) or `<subject>:<YYYY-MM-DD>` (a day): every increment goes by it. */
  _id: string;
  interval: StoredInterval;
  /** Start of the hour or day (UTC). */
  start: Date;
  /** The UTC day (`YYYY-MM-DD`) of an hour, the month (`YYYY-MM`) of a day. */
  partition: string;
}

/** The buckets of one read: their interval, size and bounds, and the partitions they fall in. */
export interface SeriesRange {
  interval: StoredInterval;
  /** Start of the first bucket, end of the last. */
  start: Date;
  end: Date;
  /** Every bucket's start, oldest first. */
  starts: Date[];
  /** The partitions the range touches: one indexed query each. */
  partitions: string[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const INTERVAL_MS: Record<SeriesInterval, number> = { HOUR: HOUR_MS, DAY: DAY_MS };
/** 31 days of hours, 366 days: what one read may ask for. */
export const MAX_BUCKETS: Record<SeriesInterval, number> = { HOUR: 744, DAY: 366 };
/** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years a timestamp (and an ISO 8601 date) can say. */
const EARLIEST = -62_135_596_800_000;
const LATEST = 253_402_300_800_000;

const floorTo = (ms: number, size: number) => Math.floor(ms / size) * size;
const iso = (ms: number) => new Date(ms).toISOString();
const partitionOf = (interval: StoredInterval, start: number) => iso(start).slice(0, interval === 'hour' ? 10 : 7);

/** The two documents a moment counts in, UTC: its hour's and its day's, of `subject` (a campaign id, an action key…). */
export function timeBucketTargets(subject: string, at: Date): [TimeBucketTarget, TimeBucketTarget] {
  const hour = floorTo(at.getTime(), HOUR_MS);
  const day = floorTo(at.getTime(), DAY_MS);
  return [
    { _id: `${subject}:${iso(hour).slice(0, 13)}`, interval: 'hour', start: new Date(hour), partition: partitionOf('hour', hour) },
    { _id: `${subject}:${iso(day).slice(0, 10)}`, interval: 'day', start: new Date(day), partition: partitionOf('day', day) },
  ];
}

const invalidRange = (message: string) => refused('INVALID_RANGE', message);

/**
 * Every bucket that overlaps [from, to). Refused (INVALID_RANGE) when `to`
 * is not after `from`, the range holds more than MAX_BUCKETS, or it leaves
 * the years 0001 to 9999.
 */
export function seriesRange(interval: SeriesInterval, from: Date, to: Date): SeriesRange {
  const size = INTERVAL_MS[interval];
  if (!(to.getTime() > from.getTime())) throw invalidRange('to must be after from.');
  const start = floorTo(from.getTime(), size);
  const end = Math.ceil(to.getTime() / size) * size;
  if (start < EARLIEST || end > LATEST) throw invalidRange('from and to must fall within the years 0001 to 9999 (UTC).');
  const count = (end - start) / size;
  if (count > MAX_BUCKETS[interval]) {
    throw invalidRange(`At most ${MAX_BUCKETS[interval]} ${interval === 'HOUR' ? 'hourly' : 'daily'} buckets per read; this range holds ${count}.`);
  }
  const stored: StoredInterval = interval === 'HOUR' ? 'hour' : 'day';
  const starts: Date[] = [];
  for (let at = start; at < end; at += size) starts.push(new Date(at));
  const partitions = new Set<string>();
  // A partition per day of the range (hours), or per month (days: each day of it, as a month's length varies).
  for (let at = floorTo(start, DAY_MS); at < end; at += DAY_MS) partitions.add(partitionOf(stored, at));
  return { interval: stored, start: new Date(start), end: new Date(end), starts, partitions: [...partitions] };
}

/**
 * The documents of a range by their start: `read` is asked for each
 * partition (at most 32 days of hours, 13 months of days), side by side,
 * and must answer that partition's documents whose start is in [start, end).
 */
export async function readSeries<D extends { start: Date }>(
  range: SeriesRange,
  read: (partition: string, start: Date, end: Date) => Promise<D[]>,
): Promise<Map<number, D>> {
  const found = await Promise.all(range.partitions.map((partition) => read(partition, range.start, range.end)));
  return new Map(found.flat().map((doc) => [doc.start.getTime(), doc]));
}
