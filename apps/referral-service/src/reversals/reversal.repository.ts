import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { reversalModel, type ReversalDoc } from './reversal.model';

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The reversals (reversal.model.ts): every question asked of them and every write, by name. */
export class ReversalRepository extends Repository<ReversalDoc> {
  private readonly events: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    super(reversalModel(db));
    this.events = outbox.carrier(this.collection.model);
  }

  /** The intent under its id (derived from the request's operation when it has one), or the one already there. */
  begin(appId: string, reversal: Omit<ReversalDoc, 'appId'>): Promise<{ doc: ReversalDoc; created: boolean }> {
    return this.insertOrGet(appId, reversal);
  }

  /** An intent whose claim never happened and no longer fits (or lost to an equal one): gone, as if never asked. */
  async drop(appId: string, id: string): Promise<void> {
    await this.collection.deleteOne(appId, { _id: id, status: 'PENDING' });
  }

  /** The terms its claim settled on: the part of the sale it took (a full one takes what was left then) and the share standing after. */
  async settleTerms(appId: string, id: string, terms: Pick<ReversalDoc, 'amount' | 'full' | 'remainingShare'>): Promise<void> {
    await this.collection.updateOne(appId, { _id: id, status: 'PENDING' }, { $set: terms });
  }

  /** Marks it APPLIED with what it did and its events, once; null when another finisher did (read it again). */
  async applied(reversal: ReversalDoc, outcome: Pick<ReversalDoc, 'rewards' | 'rewardAmountReversed' | 'clawbackAmount'>, events: DomainEvent[]): Promise<ReversalDoc | null> {
    const carried = this.events.carry(events);
    const updated = await this.collection.findOneAndUpdate(
      reversal.appId,
      { _id: reversal._id, status: 'PENDING' },
      carried.update({ $set: { ...outcome, status: 'APPLIED', appliedAt: new Date() } }),
    );
    if (!updated) return null;
    crashPoint('conversion.reversed');
    carried.written(updated);
    return updated;
  }

  /** The first full reversal of a sale (a conversion's own: purchaseId null), applied or still being. */
  fullOf(appId: string, conversionId: string, purchaseId: string | null): Promise<ReversalDoc | null> {
    return this.collection.findOne(appId, { conversionId, purchaseId, full: true });
  }

  /** GET /conversions/{conversionId}/reversals: newest first (ties by id). */
  page(appId: string, conversionId: string, page: PageQuery): Promise<Page<ReversalDoc>> {
    return this.collection.page(appId, { conversionId }, NEWEST_FIRST, page);
  }

  /** Reversals of every app still PENDING, created before `before`, oldest first: the recovery pass's (a system job). */
  pendingBefore(before: Date, limit: number): Promise<ReversalDoc[]> {
    return this.acrossApps
      .find({ status: 'PENDING', createdAt: { $lt: before } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<ReversalDoc[]>()
      .exec();
  }
}
