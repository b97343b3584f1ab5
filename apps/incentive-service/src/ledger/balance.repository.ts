import type { Connection } from 'mongoose';
import { Repository, type Page, type PageQuery } from '@ris/mongo';
import { balanceId } from '../events/derived-ids';
import { balanceModel, type BalanceDoc } from './balance.model';

/** How a balance moves from one version to the next (balanceUpdate in balance-fold.ts). */
export interface BalanceChange {
  $inc: Record<string, number>;
  $set: Record<string, unknown>;
  $unset: Record<string, ''>;
}

export type BalanceSortName = 'xp' | 'coins' | 'tokens';

/** XP from `min`, below `below` (null: no upper bound): the users at one level of a ladder. */
export interface XpRange {
  min: number;
  below: number | null;
}

/** Which balances a list holds: an XP range (a level), a user id prefix; each optional. */
export interface BalanceRange {
  xp?: XpRange;
  userIdPrefix?: string;
}

function rangeQuery({ xp, userIdPrefix }: BalanceRange): Record<string, unknown> {
  const filter: Record<string, unknown> = xp ? { xp: xp.below === null ? { $gte: xp.min } : { $gte: xp.min, $lt: xp.below } } : {};
  if (userIdPrefix) filter.userId = { $gte: userIdPrefix, $lt: `${userIdPrefix}\u{10FFFF}` };
  return filter;
}

/**
 * The fields of a board: ALL_TIME ranks the balance's XP and when it
 * changed; a day, week or month its `periods.<field>` (periodField in
 * period-keys.ts). Null is ALL_TIME.
 */
export type BoardField = string | null;

const boardFilter = (field: BoardField) => (field === null ? {} : { [`periods.${field}`]: { $exists: true } });
const boardOrder = (field: BoardField) =>
  field === null ? { xp: -1 as const, xpChangedAt: 1 as const, userId: 1 as const } : { [`periods.${field}.xp`]: -1 as const, [`periods.${field}.at`]: 1 as const, userId: 1 as const };

/** The users' balances (balance.model.ts): every question asked of them, by name. */
export class BalanceRepository extends Repository<BalanceDoc> {
  constructor(db: Connection) {
    super(balanceModel(db));
  }

  /** A user's stored balance (null: no movement yet). */
  ofUser(appId: string, userId: string): Promise<BalanceDoc | null> {
    return this.collection.findById(appId, balanceId(appId, userId));
  }

  /**
   * Moves a user's balance from version `seq` by `change`, if it is still at
   * `seq` (the first version, 0, creates it): false when it was not (someone
   * else moved first). Coins, tokens and XP are also guarded never to go
   * below zero: implied by the version check (the planner saw these amounts
   * at this version), stated again so no bug elsewhere can break it.
   */
  advance(appId: string, userId: string, seq: number, change: BalanceChange, at: Date): Promise<boolean> {
    const { $inc, $set, $unset } = change;
    const filter: Record<string, unknown> = { _id: balanceId(appId, userId), seq };
    if ($inc.coins !== undefined && $inc.coins < 0) filter.coins = { $gte: -$inc.coins };
    if ($inc.tokens !== undefined && $inc.tokens < 0) filter.tokens = { $gte: -$inc.tokens };
    if ($inc.xp !== undefined && $inc.xp < 0) filter.xp = { $gte: -$inc.xp };
    const update: Record<string, unknown> = {
      $inc,
      $set: { ...$set, updatedAt: at },
      $setOnInsert: { appId, userId, createdAt: at },
    };
    if (Object.keys($unset).length > 0) update.$unset = $unset;
    return this.collection.compareAndSet(appId, filter, update, { upsert: seq === 0 });
  }

  /** Replaces a drifted balance's fields with its recomputation, if it is still at `seq` (the balance rebuild's fix). */
  replaceAt(appId: string, id: string, seq: number, fields: Omit<BalanceDoc, '_id' | 'appId' | 'userId' | 'seq' | 'createdAt' | 'updatedAt'>): Promise<boolean> {
    return this.collection.compareAndSet(appId, { _id: id, seq }, { $set: { ...fields, updatedAt: new Date() } });
  }

  /**
   * GET /incentives/balances: highest first by coins, tokens or XP (ties by
   * user); with `xp`, only the balances in that range; with `userIdPrefix`,
   * only users whose id starts with it (a range of the id, as the index
   * orders it after the sort field).
   */
  page(appId: string, page: PageQuery, sort: BalanceSortName, within: BalanceRange = {}): Promise<Page<BalanceDoc>> {
    return this.collection.page(appId, rangeQuery(within), { [sort]: -1, userId: 1 }, page);
  }

  /** page() of every balance, as a stream (an export). */
  allInOrder(appId: string, sort: BalanceSortName, within: BalanceRange = {}): AsyncIterable<BalanceDoc> {
    return this.collection.stream(appId, rangeQuery(within), { [sort]: -1, userId: 1 });
  }

  /** How many users have a balance (a leaderboard rebuild's total). */
  count(appId: string): Promise<number> {
    return this.collection.count(appId);
  }

  /** Every balance of the app, in id order: a leaderboard rebuild. */
  inIdOrder(appId: string): AsyncIterable<BalanceDoc> {
    return this.collection.model.find({ appId }).sort({ _id: 1 }).lean<BalanceDoc>().cursor();
  }

  /** The apps with a balance on a board: the snapshot pass, across apps (each snapshot then taken with its app). */
  async appsOnBoard(field: BoardField): Promise<string[]> {
    return (await this.acrossApps.distinct('appId', boardFilter(field)).exec()) as string[];
  }

  /** The top of one board, ranked like the live board (XP, then who reached it first, then the user id): a snapshot. */
  topOfBoard(appId: string, field: BoardField, limit: number): Promise<BalanceDoc[]> {
    return this.collection.find(appId, boardFilter(field), { sort: boardOrder(field), limit });
  }

  /** The users on one board (a snapshot's total). */
  countOnBoard(appId: string, field: BoardField): Promise<number> {
    return this.collection.count(appId, boardFilter(field));
  }

  /** Every balance, of one app or, without one, of every app: the balance rebuild's check for balances without entries. */
  all(appId?: string): AsyncIterable<BalanceDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .lean<BalanceDoc>()
      .cursor();
  }

  /**
   * Balances with a lot to expire or a pending credit to release by `now`
   * (across apps: the dues pass, a system job): who they are, as the pass
   * settles each from its balance again. Unsorted and projected: the pass
   * takes every due one anyway, and on FerretDB v1 a sort (or the lots)
   * made the store read and order every balance for each batch (36 s a
   * batch over 10,000 balances of 100 lots, against 3 s).
   */
  due(now: Date, limit: number): Promise<Array<Pick<BalanceDoc, '_id' | 'appId' | 'userId'>>> {
    return this.acrossApps
      .find({ nextDueAt: { $lte: now } }, { appId: 1, userId: 1 })
      .limit(limit)
      .lean<Array<Pick<BalanceDoc, '_id' | 'appId' | 'userId'>>>()
      .exec();
  }
}
