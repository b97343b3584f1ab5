import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { purchaseModel, type PurchaseDoc } from './purchase.model';

const NEWEST_FIRST = { occurredAt: -1, _id: -1 } as const;

/** The purchases (purchase.model.ts): every question asked of them and every write, by name. */
export class PurchaseRepository extends Repository<PurchaseDoc> {
  constructor(db: Connection) {
    super(purchaseModel(db));
  }

  /**
   * A new purchase under its derived _id, or the one already there: a
   * replay of its externalId, a retry of its operation, a replica racing
   * this one. `created` tells which.
   */
  insertPurchase(appId: string, purchase: Omit<PurchaseDoc, 'appId'>): Promise<{ doc: PurchaseDoc; created: boolean }> {
    return this.insertOrGet(appId, purchase);
  }

  /** GET /conversions/{conversionId}/purchases: newest payment first (ties by id). */
  page(appId: string, conversionId: string, page: PageQuery): Promise<Page<PurchaseDoc>> {
    return this.collection.page(appId, { conversionId }, NEWEST_FIRST, page);
  }

  /** Marks the purchase's rewards issued and counted, once; null when they were already. */
  markIssued(appId: string, id: string, at: Date): Promise<PurchaseDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: id, rewardsPending: true }, { $set: { rewardsIssuedAt: at, rewardsPending: false } });
  }

  /**
   * Claims `amount` of the purchase for a reversal, once, only while it is
   * as the reversal saw it (see ConversionRepository.claimReversal); a full
   * one marks it REVERSED. The purchase after, or null when it changed.
   */
  claimReversal(appId: string, purchase: Pick<PurchaseDoc, '_id' | 'reversedAmount'>, reversal: { id: string; amount: number; full: boolean }): Promise<PurchaseDoc | null> {
    const after = purchase.reversedAmount + reversal.amount;
    return this.collection.findOneAndUpdate(
      appId,
      { _id: purchase._id, status: 'ACTIVE', reversedAmount: purchase.reversedAmount, reversalIds: { $ne: reversal.id } },
      { $set: { reversedAmount: after, ...(reversal.full ? { status: 'REVERSED' } : {}) }, $push: { reversalIds: reversal.id, reversalLog: { id: reversal.id, after } } },
    );
  }

  /**
   * Purchases of every app whose rewards are not issued, recorded before
   * `before`, oldest first: the recovery pass's, a system job across apps
   * (each purchase is then finished with its own appId), so not scoped by one.
   */
  unissuedBefore(before: Date, limit: number): Promise<PurchaseDoc[]> {
    return this.acrossApps
      .find({ rewardsPending: true, createdAt: { $lt: before } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<PurchaseDoc[]>()
      .exec();
  }
}
