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
   * Puts the clawback in a payout, only while it is in none: the clawback
   * after, or null when another payout took it. The payouts of an app are
   * made one at a time in a process (PayoutRepository.exclusive), the
   * only writer of this field.
   */
  claimForPayout(appId: string, clawbackId: string, payoutId: string): Promise<RewardReversalDoc | null> {
    return this.docs.run(clawbackId, () => this.collection.findOneAndUpdate(appId, { _id: clawbackId, effect: 'CLAWBACK', payoutId: null, settledAt: null }, { $set: { payoutId } }));
  }

  /** Takes the clawback out of the payout (it failed, or was never made): owed again. */
  releaseFromPayout(appId: string, clawbackId: string, payoutId: string): Promise<number> {
    return this.docs.run(clawbackId, () => this.collection.updateOne(appId, { _id: clawbackId, payoutId, settledAt: null }, { $set: { payoutId: null } }));
  }

  /** The payout that netted these clawbacks was paid: settled (each once, by its payout). */
  async settle(appId: string, clawbackIds: readonly string[], payoutId: string, at: Date): Promise<number> {
    const settled = await Promise.all(
      clawbackIds.map((_id) => this.docs.run(_id, () => this.collection.updateOne(appId, { _id, payoutId, settledAt: null }, { $set: { settledAt: at } }))),
    );
    return settled.reduce((sum, n) => sum + n, 0);
  }

  /** The clawbacks of these ids (a payout's), in no order. */
  byIds(appId: string, ids: readonly string[]): Promise<RewardReversalDoc[]> {
    return ids.length ? this.collection.find(appId, { _id: { $in: [...ids] } }) : Promise.resolve([]);
  }
}
