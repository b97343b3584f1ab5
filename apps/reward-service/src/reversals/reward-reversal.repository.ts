import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { OnceMarkers, Repository, type Page, type PageQuery } from '@ris/mongo';
import { rewardReversalModel, type RewardReversalDoc } from './reward-reversal.model';

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The reversals applied to rewards (RewardReversalDoc), and the clawbacks among them. */
export class RewardReversalRepository extends Repository<RewardReversalDoc> {
  private readonly events: OutboxCarrier;
  /** One marker per reduction whose totals were counted: the first finisher counts them, no other. */
  private readonly counted: OnceMarkers;

  constructor(db: Connection, outbox: Outbox) {
    super(rewardReversalModel(db));
    this.events = outbox.carrier(this.collection.model);
    this.counted = new OnceMarkers(db);
  }

  /** Records the intent, or answers the one recorded first (a retry, a replica, the recovery pass). */
  async begin(appId: string, intent: Omit<RewardReversalDoc, 'appId'>): Promise<RewardReversalDoc> {
    return (await this.insertOrGet(appId, intent)).doc;
  }

  /** True for the one caller that counts this reversal's totals. */
  countsTotals(reversal: RewardReversalDoc): Promise<boolean> {
    return this.counted.first(reversal.appId, `reward-reversal:${reversal._id}:totals`);
  }

  /**
   * The reversal is applied: what it did and its events, in one update,
   * once. Null when another finisher marked it first (the caller reads it).
   */
  async done(reversal: RewardReversalDoc, outcome: Pick<RewardReversalDoc, 'effect' | 'from' | 'to' | 'clawback'>, events: DomainEvent[]): Promise<RewardReversalDoc | null> {
    const carried = this.events.carry(events);
    const updated = await this.collection.findOneAndUpdate(reversal.appId, { _id: reversal._id, done: false }, carried.update({ $set: { ...outcome, done: true } }));
    if (!updated) return null;
    crashPoint('reward.reversed');
    carried.written(updated);
    return updated;
  }

  /** Reversals still being applied after `olderThanMs`, oldest first. Across apps: the recovery pass serves every app. */
  open(olderThanMs: number, limit: number): Promise<RewardReversalDoc[]> {
    return this.acrossApps
      .find({ done: false, createdAt: { $lt: new Date(Date.now() - olderThanMs) } })
      .sort({ createdAt: 1 })
      .limit(limit)
      .lean<RewardReversalDoc[]>()
      .exec();
  }

  /** GET /rewards/clawbacks: what referrers owe back, newest first, of one user or of all. */
  clawbacks(appId: string, userId: string | undefined, page: PageQuery): Promise<Page<RewardReversalDoc>> {
    return this.collection.page(appId, { ...(userId ? { userId } : {}), effect: 'CLAWBACK' }, NEWEST_FIRST, page);
  }

  /** The clawbacks listed by clawbacks(), summed per currency (every page). */
  async clawbackTotals(appId: string, userId: string | undefined): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    for await (const doc of this.collection.stream(appId, { ...(userId ? { userId } : {}), effect: 'CLAWBACK' }, NEWEST_FIRST)) {
      totals.set(doc.currency, (totals.get(doc.currency) ?? 0) + doc.clawback);
    }
    return totals;
  }
}
