import type { Connection, UpdateQuery } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { incentiveEventModel, type IncentiveEventDoc } from './incentive-event.model';

export interface EventListFilter {
  userId?: string;
  actionKey?: string;
  from?: Date;
  to?: Date;
}

/**
 * The processed events (incentive-event.model.ts): inserted once, then
 * written again only to store their incentive.event.processed again and to
 * count the duplicates answered from them, one write at a time per
 * document in this process (FerretDB v1 runs an update as a read and a
 * write, so two at once could undo each other); the outbox clean-up takes
 * the same lock.
 */
export class IncentiveEventRepository extends Repository<IncentiveEventDoc> {
  private readonly rewrites = new SerialByKey();

  constructor(db: Connection) {
    super(incentiveEventModel(db));
  }

  /** incentive.event.processed, stored with the event documents (its clean-up in turn with the other writes of a document). */
  carrier(outbox: Outbox): OutboxCarrier {
    return outbox.carrier(this.collection.model, { lock: { run: (doc, work) => this.rewrites.run(doc._id, work) } });
  }

  /**
   * Inserts event documents in one unordered write: per document whether
   * this call inserted it (false: it was there, a recovered event its
   * first holder wrote after all), or null when the store did not say.
   */
  store(docs: IncentiveEventDoc[]): Promise<boolean[] | null> {
    return this.insertNewIfKnown(docs);
  }

  /** Applies `update` (an outbox carrier's, storing events again) to an event document: false when it is not there. */
  carryAgain(appId: string, eventId: string, update: UpdateQuery<IncentiveEventDoc>): Promise<boolean> {
    return this.rewrites.run(eventId, () => this.collection.compareAndSet(appId, { _id: eventId }, update));
  }

  /** Adds `n` duplicate answers to an event's count. */
  async addDuplicates(appId: string, eventId: string, n: number): Promise<void> {
    await this.rewrites.run(eventId, () => this.collection.updateOne(appId, { _id: eventId }, { $inc: { duplicates: n } }));
  }

  /** GET /incentives/events: newest first (ties by id), of a user and/or an action, from/to a time, or all. */
  page(appId: string, page: PageQuery, filter: EventListFilter): Promise<Page<IncentiveEventDoc>> {
    const query: Record<string, unknown> = {};
    if (filter.userId) query.userId = filter.userId;
    if (filter.actionKey) query.actionKey = filter.actionKey;
    if (filter.from || filter.to) {
      query.createdAt = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lte: filter.to } : {}) };
    }
    return this.collection.page(appId, query, { createdAt: -1, _id: -1 }, page);
  }

  /** Every event, of one app or, without one, of every app: the series recount (tools/incentive-rebuild-series.mjs). */
  all(appId?: string): AsyncIterable<IncentiveEventDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .lean<IncentiveEventDoc>()
      .cursor();
  }
}
