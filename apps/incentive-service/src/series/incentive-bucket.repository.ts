import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository, closeDrift, type CounterDrift } from '@ris/mongo';
import { incentiveBucketModel, type IncentiveBucketDoc } from './incentive-bucket.model';

/** What a bucket document is created with: its subject, interval, start and partition. */
export type IncentiveBucketFields = Pick<IncentiveBucketDoc, 'subject' | 'interval' | 'start' | 'partition'>;

/**
 * How far apart the writes of one bucket document start. Nobody waits for a
 * count (IncentiveSeries), so the current hour's and day's documents, which
 * take every event and ledger entry of the app, are written a few times a
 * second whatever the load instead of once per batch of events (measured:
 * 2.2 bucket updates per single event at 8 connections, each a read and a
 * rewrite on FerretDB, about a quarter of the database's statements).
 */
export const BUCKET_WRITE_SPACING_MS = 250;

/** Actions' and the engine's hour and day counters (incentive-bucket.model.ts): incremented by _id, read by partition. */
export class IncentiveBucketRepository extends Repository<IncentiveBucketDoc> {
  // Coalesced and serial per process (FerretDB runs $inc as a read and a write), and spaced.
  private readonly increments: DocumentWriteQueue<IncentiveBucketDoc>;

  constructor(db: Connection) {
    super(incentiveBucketModel(db));
    this.increments = new DocumentWriteQueue(this.collection, { spacingMs: BUCKET_WRITE_SPACING_MS });
  }

  /** Adds to one bucket (its document made on the first increment). */
  add(appId: string, bucketId: string, fields: IncentiveBucketFields, inc: Record<string, number>): Promise<void> {
    return this.increments.increment(appId, { _id: bucketId }, inc, fields);
  }

  /** A subject's buckets of one interval and partition (a day of hours, a month of days) whose start is in [start, end), in order. */
  inPartition(appId: string, fields: Omit<IncentiveBucketFields, 'start'>, start: Date, end: Date): Promise<IncentiveBucketDoc[]> {
    const { subject, interval, partition } = fields;
    return this.collection.find(appId, { subject, interval, partition, start: { $gte: start, $lt: end } }, { sort: { start: 1 } });
  }

  /** Every bucket, of one app or, without one, of every app: a maintenance pass (tools/incentive-rebuild-series.mjs). */
  all(appId?: string): AsyncIterable<IncentiveBucketDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .lean<IncentiveBucketDoc>()
      .cursor();
  }

  /** Closes a drift the maintenance pass found (an $inc of the difference; the document made with `fields` if missing). */
  closeDrift(drift: CounterDrift, fields: IncentiveBucketFields): Promise<void> {
    return closeDrift(this.acrossApps, drift, fields);
  }
}
