import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository, closeDrift, type CounterDrift } from '@ris/mongo';
import { campaignBucketModel, type CampaignBucketDoc } from './campaign-bucket.model';

/** What a bucket document is created with: its campaign, interval, start and partition. */
export type BucketFields = Pick<CampaignBucketDoc, 'campaignId' | 'interval' | 'start' | 'partition'>;

/** A campaign's hour and day counters (campaign-bucket.model.ts): incremented by _id, read by partition. */
export class CampaignBucketRepository extends Repository<CampaignBucketDoc> {
  // The current hour's and day's documents take every write of the
  // campaign, as its totals do: coalesced, and serial per process (FerretDB
  // runs $inc as a read and a write).
  private readonly increments: DocumentWriteQueue<CampaignBucketDoc>;

  constructor(db: Connection) {
    super(campaignBucketModel(db));
    this.increments = new DocumentWriteQueue(this.collection);
  }

  /** Adds to one bucket (its document made on the first increment). */
  add(appId: string, bucketId: string, fields: BucketFields, inc: Record<string, number>): Promise<void> {
    return this.increments.increment(appId, { _id: bucketId }, inc, fields);
  }

  /** A campaign's buckets of one interval and partition (a day of hours, a month of days) whose start is in [start, end), in order. */
  inPartition(appId: string, fields: Omit<BucketFields, 'start'>, start: Date, end: Date): Promise<CampaignBucketDoc[]> {
    const { campaignId, interval, partition } = fields;
    return this.collection.find(appId, { campaignId, interval, partition, start: { $gte: start, $lt: end } }, { sort: { start: 1 } });
  }

  /** Every campaign's buckets of one interval and partition whose start is in [start, end) (the app's series). */
  inAppPartition(appId: string, fields: Pick<BucketFields, 'interval' | 'partition'>, start: Date, end: Date): Promise<CampaignBucketDoc[]> {
    const { interval, partition } = fields;
    return this.collection.find(appId, { interval, partition, start: { $gte: start, $lt: end } });
  }

  /** Every bucket, of one app or, without one, of every app: a maintenance pass (tools/referral-rebuild-stats.mjs). */
  all(appId?: string): AsyncIterable<CampaignBucketDoc> {
    return this.collection.model
      .find(appId ? { appId } : {})
      .lean<CampaignBucketDoc>()
      .cursor();
  }

  /** Closes a drift the maintenance pass found (an $inc of the difference; the document made with `fields` if missing). */
  closeDrift(drift: CounterDrift, fields: BucketFields): Promise<void> {
    return closeDrift(this.collection.model, drift, fields);
  }
}
