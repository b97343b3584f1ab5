import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { LISTED_STATUSES, payoutModel, type PayoutDoc, type PayoutStatusName } from './payout.model';

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** GET /payouts' filters (each optional), and the export's period. */
export interface PayoutFilter {
  status?: PayoutStatusName;
  userId?: string;
  from?: Date;
  to?: Date;
}

function listQuery(filter: PayoutFilter): Record<string, unknown> {
  return {
    status: filter.status ?? { $in: [...LISTED_STATUSES] },
    ...(filter.userId ? { userId: filter.userId } : {}),
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) } } : {}),
  };
}

/** The payouts (PayoutDoc): every question the payout operations ask, by name (payout.model.ts names each index). */
export class PayoutRepository extends Repository<PayoutDoc> {
  private readonly events: OutboxCarrier;
  /**
   * The payout work of one app, one operation at a time in this process:
   * two POST /payouts at once would otherwise split a referrer's rewards
   * between two payouts, each perhaps under the minimum. Which payout a
   * reward or clawback is in is still decided on it (a conditional write),
   * so replicas never pay one twice either.
   */
  private readonly apps = new SerialByKey();
  /**
   * Writes to one payout, one at a time in this process, the outbox
   * relay's clean-up of its events included: a payout is written again
   * after it carried events (opened, then paid or failed, then settled),
   * and FerretDB v1 runs an update as a read and a write of the whole
   * document, so the clean-up could undo a status change beside it.
   */
  private readonly docs = new SerialByKey();

  constructor(db: Connection, outbox: Outbox) {
    super(payoutModel(db));
    this.events = outbox.carrier(this.collection.model, { lock: { run: (doc, work) => this.docs.run(doc._id, work) } });
  }

  private serially<R>(payoutId: string, work: () => Promise<R>): Promise<R> {
    return this.docs.run(payoutId, work);
  }

  exclusive<R>(appId: string, work: () => Promise<R>): Promise<R> {
    return this.apps.run(appId, work);
  }

  /** Stores a payout being made (CREATING), before it claims anything. */
  async begin(payout: PayoutDoc): Promise<void> {
    await this.collection.create(payout.appId, payout);
  }

  /** CREATING → PENDING with what it claimed and its event; null when the recovery pass gave it up meanwhile. */
  async open(payout: PayoutDoc, claimed: Pick<PayoutDoc, 'amount' | 'rewardsAmount' | 'clawbacksAmount' | 'rewardIds' | 'clawbackIds'>, events: (p: PayoutDoc) => DomainEvent[]): Promise<PayoutDoc | null> {
    const opened: PayoutDoc = { ...payout, ...claimed, status: 'PENDING', settled: true, updatedAt: new Date() };
    const carried = this.events.carry(events(opened));
    const updated = await this.serially(payout._id, () =>
      this.collection.findOneAndUpdate(
        payout.appId,
        { _id: payout._id, status: 'CREATING' },
        carried.update({ $set: { ...claimed, status: 'PENDING', settled: true, updatedAt: opened.updatedAt } }),
      ),
    );
    if (!updated) return null;
    crashPoint('payout.opened');
    carried.written(updated);
    return updated;
  }

  /**
   * A payout that will not be opened (too little won, or its process died):
   * CREATING → ABANDONED, so a late open() of it fails, before what it
   * claimed is given back. True when it is ABANDONED (now or before).
   */
  async abandon(appId: string, payoutId: string): Promise<boolean> {
    await this.serially(payoutId, () => this.collection.updateOne(appId, { _id: payoutId, status: 'CREATING' }, { $set: { status: 'ABANDONED', updatedAt: new Date() } }));
    return (await this.findById(appId, payoutId))?.status === 'ABANDONED';
  }

  /** An ABANDONED payout whose claims were given back: gone. */
  async forget(appId: string, payoutId: string): Promise<void> {
    await this.serially(payoutId, () => this.collection.deleteOne(appId, { _id: payoutId, status: 'ABANDONED' }));
  }

  /**
   * PENDING → PAID or FAILED with its fields and event, unsettled (what it
   * owes its rewards and clawbacks follows); null when it is not PENDING.
   */
  async close(appId: string, payoutId: string, to: 'PAID' | 'FAILED', fields: Partial<PayoutDoc>, events: (p: PayoutDoc) => DomainEvent[]): Promise<PayoutDoc | null> {
    const current = await this.findById(appId, payoutId);
    if (current?.status !== 'PENDING') return null;
    const closed: PayoutDoc = { ...current, ...fields, status: to, settled: false, updatedAt: new Date() };
    const carried = this.events.carry(events(closed));
    const updated = await this.serially(payoutId, () =>
      this.collection.findOneAndUpdate(appId, { _id: payoutId, status: 'PENDING' }, carried.update({ $set: { ...fields, status: to, settled: false, updatedAt: closed.updatedAt } })),
    );
    if (!updated) return null;
    crashPoint('payout.closed');
    carried.written(updated);
    return updated;
  }

  /** What a PAID or FAILED payout owes its rewards and clawbacks is written. */
  async markSettled(payout: PayoutDoc): Promise<PayoutDoc> {
    const settled = await this.serially(payout._id, () => this.collection.findOneAndUpdate(payout.appId, { _id: payout._id, settled: false }, { $set: { settled: true } }));
    return settled ?? { ...payout, settled: true };
  }

  /** Payouts a dead process left unfinished (CREATING or ABANDONED, or PAID/FAILED unsettled) for `olderThanMs`, oldest first. Across apps: a system job. */
  unfinished(olderThanMs: number, limit: number): Promise<PayoutDoc[]> {
    return this.acrossApps
      .find({ settled: false, updatedAt: { $lt: new Date(Date.now() - olderThanMs) } })
      .sort({ updatedAt: 1 })
      .limit(limit)
      .lean<PayoutDoc[]>()
      .exec();
  }

  /** A payout the API shows (PENDING, PAID or FAILED); null for any other (a CREATING one does not exist for anyone yet). */
  async listed(appId: string, payoutId: string): Promise<PayoutDoc | null> {
    const payout = await this.findById(appId, payoutId);
    return payout && LISTED_STATUSES.includes(payout.status) ? payout : null;
  }

  /** The payouts a POST /payouts operation made (a retry answers them), oldest first. */
  madeBy(appId: string, operationKey: string): Promise<PayoutDoc[]> {
    return this.collection.find(appId, { operationKey, status: { $in: [...LISTED_STATUSES] } }, { sort: { createdAt: 1, _id: 1 } });
  }

  /** GET /payouts: newest first (ties by id), filtered; never a CREATING one. */
  list(appId: string, filter: PayoutFilter, page: PageQuery): Promise<Page<PayoutDoc>> {
    return this.collection.page(appId, listQuery(filter), NEWEST_FIRST, page);
  }

  /** list() of every payout in the period, as a stream (the export). */
  all(appId: string, filter: PayoutFilter): AsyncIterable<PayoutDoc> {
    return this.collection.stream(appId, listQuery(filter), NEWEST_FIRST);
  }
}
