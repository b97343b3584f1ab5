import type { Connection } from 'mongoose';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { payoutScopeQuery, type PayoutScope } from './payout-scope';
import { rewardModel, type FulfillmentTypeName, type RewardDoc, type RewardReversalEntry, type RewardStatusName } from './reward.model';

/** What a sale earns once: one reward per side and level, of the conversion (purchaseId null) or of one of its purchases. */
export type EarnedKey = Pick<RewardDoc, 'conversionId' | 'side' | 'level'> & { purchaseId: string | null };

/** GET /rewards' filters (each optional). */
export interface RewardFilter {
  userId?: string;
  status?: RewardStatusName;
  fulfillmentType?: FulfillmentTypeName;
}

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

/** A reward's turn in this process's writes (RewardRepository.locks). */
const lockKey = (appId: string, rewardId: string) => `${appId}\u0000${rewardId}`;

/** GET /rewards' filters that are set, as the query (each has its index: reward.model.ts). */
function listQuery(filter: RewardFilter): RewardFilter {
  const query: RewardFilter = {};
  if (filter.userId) query.userId = filter.userId;
  if (filter.status) query.status = filter.status;
  if (filter.fulfillmentType) query.fulfillmentType = filter.fulfillmentType;
  return query;
}

/** The fields a status change writes with the status (approvedAt, redeemedAt, cancelledAt, updatedAt). */
export type StatusFields = Partial<Omit<RewardDoc, '_id' | 'appId' | 'status'>>;

/**
 * The rewards: every question the reward operations ask of them, by name
 * (reward.model.ts names the index of each).
 */
export class RewardRepository extends Repository<RewardDoc> {
  /**
   * Writes to one reward, one at a time in this process. FerretDB v1 runs an
   * update as a read of the whole document and a write of it back, so two
   * updates of one reward at once (a claim's code beside a redemption's
   * status, a reversal beside a release) could undo each other; on MongoDB
   * each is atomic anyway. Replicas decide between themselves through the
   * move journal's unique inserts.
   */
  private readonly locks = new SerialByKey();

  constructor(db: Connection) {
    super(rewardModel(db));
  }

  private serially<R>(appId: string, rewardId: string, work: () => Promise<R>): Promise<R> {
    return this.locks.run(lockKey(appId, rewardId), work);
  }

  /** The reward a sale earned for this side and level, if it was made (purchaseId null: also a reward stored before purchases, without the field). */
  earnedFor(appId: string, key: EarnedKey): Promise<RewardDoc | null> {
    return this.collection.findOne(appId, { conversionId: key.conversionId, purchaseId: key.purchaseId, side: key.side, level: key.level });
  }

  /**
   * Stores a new reward, or answers the one of its conversion, side and
   * level that a concurrent call stored first (the unique index decides;
   * `created` tells which).
   */
  async insertEarned(reward: RewardDoc): Promise<{ reward: RewardDoc; created: boolean }> {
    const [inserted] = await this.insertNew([reward]);
    if (inserted) return { reward, created: true };
    const winner = await this.earnedFor(reward.appId, { ...reward, purchaseId: reward.purchaseId ?? null });
    if (!winner) throw new Error(`reward ${reward._id} was refused as a duplicate, but no reward holds its conversion, side and level`);
    return { reward: winner, created: false };
  }

  /** One sale's rewards (the conversion's own: purchaseId null; or a purchase's), by side, then level. */
  ofSale(appId: string, conversionId: string, purchaseId: string | null): Promise<RewardDoc[]> {
    return this.collection.find(appId, { conversionId, purchaseId }, { sort: { side: 1, level: 1 } });
  }

  /** A conversion's rewards, its purchases' too, in one of `statuses` (those a decision about the conversion can move). */
  movableOf(appId: string, conversionId: string, statuses: RewardStatusName[]): Promise<RewardDoc[]> {
    return this.collection.find(appId, { conversionId, status: { $in: statuses } });
  }

  /** The conversion's review no longer holds its PENDING rewards (they wait for their holding period only, if any). */
  async releaseReview(appId: string, conversionId: string): Promise<number> {
    const held = { conversionId, status: 'PENDING', reviewHold: true };
    // One reward at a time under its lock (see locks): a conversion has a few.
    const ids = await this.collection.findIds(appId, held);
    const released = await Promise.all(ids.map((_id) => this.serially(appId, _id, () => this.collection.updateOne(appId, { ...held, _id }, { $set: { reviewHold: false } }))));
    return released.reduce((sum, n) => sum + n, 0);
  }

  /**
   * PENDING rewards of every app whose holding period is over and which
   * no review holds, soonest first: the release pass's work (a system job).
   */
  dueForRelease(now: Date, limit: number): Promise<RewardDoc[]> {
    return this.acrossApps
      .find({ status: 'PENDING', reviewHold: false, availableAt: { $lte: now } })
      .sort({ availableAt: 1 })
      .limit(limit)
      .lean<RewardDoc[]>()
      .exec();
  }

  /**
   * Writes what a reversal did to the reward, once per reversal, only while
   * it is as the reversal saw it (its status, amount and payout): the new amount
   * (a reduction; a paid reward keeps its own), what was taken back (owed
   * back, for a paid one: clawback), and the entry. The reward after, or null when it changed meanwhile or the
   * reversal is written already (the caller reads it again).
   */
  recordReversal(
    appId: string,
    seen: Pick<RewardDoc, '_id' | 'status' | 'amount' | 'payoutId'>,
    entry: RewardReversalEntry,
    change: { amount: number; taken: number; reason: string; clawback: number },
  ): Promise<RewardDoc | null> {
    return this.serially(appId, seen._id, () => this.collection.findOneAndUpdate(
      appId,
      // reversalIds beside the entries: an array-of-strings match, which FerretDB v1 answers as MongoDB does.
      { _id: seen._id, status: seen.status, amount: seen.amount, payoutId: seen.payoutId ?? null, reversalIds: { $ne: entry.reversalId } },
      {
        $set: { amount: change.amount, updatedAt: entry.at, ...(entry.effect === 'UNCHANGED' ? {} : { reversalReason: change.reason }) },
        $inc: { reversedAmount: change.taken, clawedBack: change.clawback },
        $push: { reversals: entry, reversalIds: entry.reversalId },
      },
    ));
  }

  /** GET /rewards: newest first (ties by id), filtered. */
  list(appId: string, filter: RewardFilter, page: PageQuery): Promise<Page<RewardDoc>> {
    return this.collection.page(appId, listQuery(filter), NEWEST_FIRST, page);
  }

  /** list() of every reward, as a stream (an export). */
  all(appId: string, filter: RewardFilter): AsyncIterable<RewardDoc> {
    return this.collection.stream(appId, listQuery(filter), NEWEST_FIRST);
  }

  /**
   * Sets the reward's status and the fields that go with it, only while
   * it is still in `from`: the reward after, or null when it is not
   * (another attempt at the same move already wrote it).
   */
  setStatusFrom(appId: string, rewardId: string, from: RewardStatusName, to: RewardStatusName, fields: StatusFields): Promise<RewardDoc | null> {
    // A reward in a payout is being paid: it is never cancelled (a reversal claws it back instead).
    const payable = to === 'CANCELLED' ? { payoutId: null } : {};
    return this.serially(appId, rewardId, () => this.collection.findOneAndUpdate(appId, { _id: rewardId, status: from, ...payable }, { $set: { ...fields, status: to } }));
  }

  /** What POST /payouts may pay: APPROVED CASH rewards in no payout, of one currency and referrer when given, as a stream. */
  payable(appId: string, scope: PayoutScope): AsyncIterable<RewardDoc> {
    return this.collection.stream(appId, { fulfillmentType: 'CASH', status: 'APPROVED', payoutId: null, ...payoutScopeQuery(scope) }, { _id: 1 });
  }

  /**
   * Puts these rewards (one referrer's) in a payout, each only while it is
   * payable (APPROVED, in no payout), in one statement while holding each
   * reward's turn (locks), then reads back those it got: their amounts are
   * what the payout pays (a reduction written before the claim is in them;
   * one after it finds the reward in the payout and claws back instead).
   * Those another payout, a reversal or a cancellation got to first are not
   * in the answer.
   */
  claimForPayout(appId: string, userId: string, rewardIds: readonly string[], payoutId: string): Promise<RewardDoc[]> {
    if (rewardIds.length === 0) return Promise.resolve([]);
    const keys = rewardIds.map((id) => lockKey(appId, id));
    return this.locks.runAll(keys, async () => {
      await this.collection.updateMany(appId, { userId, _id: { $in: [...rewardIds] }, status: 'APPROVED', payoutId: null }, { $set: { payoutId, updatedAt: new Date() } });
      return this.collection.find(appId, { userId, _id: { $in: [...rewardIds] }, payoutId });
    });
  }

  /** Takes these rewards out of the payout (it failed, or was never made), those still in it and APPROVED: payable again. */
  releaseFromPayout(appId: string, userId: string, rewardIds: readonly string[], payoutId: string): Promise<number> {
    if (rewardIds.length === 0) return Promise.resolve(0);
    const keys = rewardIds.map((id) => lockKey(appId, id));
    return this.locks.runAll(keys, () =>
      this.collection.updateMany(appId, { userId, _id: { $in: [...rewardIds] }, payoutId, status: 'APPROVED' }, { $set: { payoutId: null, updatedAt: new Date() } }),
    );
  }

  /** The rewards of these ids (a payout's), in no order. */
  byIds(appId: string, ids: readonly string[]): Promise<RewardDoc[]> {
    return ids.length ? this.collection.find(appId, { _id: { $in: [...ids] } }) : Promise.resolve([]);
  }

  /** Copies the issued code's fields onto the reward (reward_codes decides the code). */
  setCode(appId: string, rewardId: string, code: Pick<RewardDoc, 'discountCode' | 'claimedAt' | 'expiresAt'>): Promise<RewardDoc | null> {
    return this.serially(appId, rewardId, () => this.collection.findOneAndUpdate(appId, { _id: rewardId }, { $set: { ...code, updatedAt: new Date() } }));
  }

  /** Every reward of one app, or of all (the totals rebuild, a maintenance command): a cursor. */
  every(appId?: string): AsyncIterable<RewardDoc> {
    return this.acrossApps.find(appId ? { appId } : {}).lean<RewardDoc>().cursor();
  }
}
