import type { Connection } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { OnceMarkers, Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { payoutScopeQuery, type PayoutScope } from '../rewards/payout-scope';
import { rewardReversalModel, type RewardReversalDoc } from './reward-reversal.model';

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** The reversals applied to rewards (RewardReversalDoc), and the clawbacks among them. */
export class RewardReversalRepository extends Repository<RewardReversalDoc> {
  private readonly events: OutboxCarrier;
  /** One marker per reduction whose totals were counted: the first finisher counts them, no other. */
  private readonly counted: OnceMarkers;

  /**
   * Writes to one clawback after it carried its event (a payout's claim,
   * release, settlement), one at a time in this process with the outbox
   * relay's clean-up of that event: on FerretDB v1 an update is a read and
   * a write of the whole document, so one could undo the other.
   */
  private readonly docs = new SerialByKey();

  constructor(db: Connection, outbox: Outbox) {
    super(rewardReversalModel(db));
    this.events = outbox.carrier(this.collection.model, { lock: { run: (doc, work) => this.docs.run(doc._id, work) } });
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

  /** The clawbacks listed by clawbacks() still owed (no paid payout settled them), summed per currency (every page). */
  async clawbackTotals(appId: string, userId: string | undefined): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    for await (const doc of this.collection.stream(appId, { ...(userId ? { userId } : {}), effect: 'CLAWBACK', settledAt: null }, NEWEST_FIRST)) {
      totals.set(doc.currency, (totals.get(doc.currency) ?? 0) + doc.clawback);
    }
    return totals;
  }

  /** What POST /payouts nets: clawbacks (done) in no payout and not settled, of one currency and referrer when given, as a stream. */
  owed(appId: string, scope: PayoutScope): AsyncIterable<RewardReversalDoc> {
    return this.collection.stream(appId, { effect: 'CLAWBACK', payoutId: null, done: true, settledAt: null, ...payoutScopeQuery(scope) }, { _id: 1 });
  }

  /**
   * Puts these clawbacks (one referrer's) in a payout, each only while it
   * is in none and not settled, in one statement holding each one's turn
   * (the relay's clean-up of its event takes it too); then reads back
   * those it got. The payouts of an app are made one at a time in a
   * process (PayoutRepository.exclusive), the only writer of this field.
   */
  claimForPayout(appId: string, userId: string, clawbackIds: readonly string[], payoutId: string): Promise<RewardReversalDoc[]> {
    if (clawbackIds.length === 0) return Promise.resolve([]);
    return this.docs.runAll(clawbackIds, async () => {
      await this.collection.updateMany(appId, { userId, _id: { $in: [...clawbackIds] }, effect: 'CLAWBACK', payoutId: null, settledAt: null }, { $set: { payoutId } });
      return this.collection.find(appId, { userId, _id: { $in: [...clawbackIds] }, payoutId });
    });
  }

  /** Takes these clawbacks out of the payout (it failed, or was never made), those still in it: owed again. */
  releaseFromPayout(appId: string, userId: string, clawbackIds: readonly string[], payoutId: string): Promise<number> {
    if (clawbackIds.length === 0) return Promise.resolve(0);
    return this.docs.runAll(clawbackIds, () => this.collection.updateMany(appId, { userId, _id: { $in: [...clawbackIds] }, payoutId, settledAt: null }, { $set: { payoutId: null } }));
  }

  /** The payout that deducted these clawbacks was paid: settled, each once, by its payout. */
  settle(appId: string, userId: string, clawbackIds: readonly string[], payoutId: string, at: Date): Promise<number> {
    if (clawbackIds.length === 0) return Promise.resolve(0);
    return this.docs.runAll(clawbackIds, () => this.collection.updateMany(appId, { userId, _id: { $in: [...clawbackIds] }, payoutId, settledAt: null }, { $set: { settledAt: at } }));
  }

  /** The clawbacks of these ids (a payout's), in no order. */
  byIds(appId: string, ids: readonly string[]): Promise<RewardReversalDoc[]> {
    return ids.length ? this.collection.find(appId, { _id: { $in: [...ids] } }) : Promise.resolve([]);
  }
}
