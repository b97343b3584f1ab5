import { SerialByKey } from '@ris/mongo';
import type { Good, GoodRepository } from './good.repository';

interface CommitBatch {
  holders: string[];
  waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
}

interface TakeRequest {
  holder: string;
  resolve: (outcome: TakeOutcome) => void;
  reject: (err: unknown) => void;
}

/** HELD: none left, but other redemptions hold units that may still come back (see StockRefusal STOCK_HELD). */
export type TakeOutcome = 'TAKEN' | 'UNLIMITED' | 'OUT_OF_STOCK' | 'HELD' | 'UNAVAILABLE';

/**
 * Conditional, idempotent stock moves on one collection of goods (-1 in
 * the stock field means unlimited; the queries are GoodRepository's). Every write to a good, these and the
 * owner's edits alike (exclusive), runs under the good's lock (see
 * SerialByKey: FerretDB's updates are not atomic).
 */
export class StockCounter<G extends Good> {
  private readonly lock = new SerialByKey();
  /** Per good (app and id): holds to make final in the next write (see commitSoon). */
  private readonly commits = new Map<string, CommitBatch>();
  /** Per good (app and id): takes waiting for the good's lock, made together (see take). */
  private readonly takes = new Map<string, TakeRequest[]>();

  constructor(readonly goods: GoodRepository<G>) {}

  /** Runs a write to the good with no other write to it in between (the owner's edits use it too). */
  exclusive<T>(goodId: string, work: () => Promise<T>): Promise<T> {
    return this.lock.run(goodId, work);
  }

  /**
   * Takes one unit for `holder` if the good is redeemable and in stock:
   * a conditional update, so concurrent takes can never oversell. Taking
   * again for the same holder is a no-op that answers TAKEN.
   *
   * Takes of one good that arrive while its lock is busy are made together
   * when it frees: one update taking n units for n holders if n are left
   * (a popular good then costs a fraction of a write per redemption), else
   * one by one, so each holder gets its exact outcome when stock runs out.
   */
  take(appId: string, goodId: string, holder: string): Promise<TakeOutcome> {
    const key = `${appId}\u0000${goodId}`;
    return new Promise<TakeOutcome>((resolve, reject) => {
      const waiting = this.takes.get(key);
      if (waiting) {
        waiting.push({ holder, resolve, reject });
        return;
      }
      const batch: TakeRequest[] = [{ holder, resolve, reject }];
      this.takes.set(key, batch);
      this.exclusive(goodId, () => {
        // From here on, arrivals start the next batch.
        this.takes.delete(key);
        return this.takeBatch(appId, goodId, batch);
      }).catch((err: unknown) => batch.forEach((request) => request.reject(err)));
    });
  }

  private async takeBatch(appId: string, goodId: string, batch: TakeRequest[]): Promise<void> {
    const holders = batch.map((request) => request.holder);
    if (batch.length > 1 && new Set(holders).size === holders.length) {
      if (await this.goods.takeUnits(appId, goodId, holders, new Date())) {
        for (const request of batch) request.resolve('TAKEN');
        return;
      }
    }
    for (const request of batch) {
      try {
        request.resolve(await this.takeNow(appId, goodId, request.holder));
      } catch (err) {
        request.reject(err);
      }
    }
  }

  private async takeNow(appId: string, goodId: string, holder: string): Promise<TakeOutcome> {
    const now = new Date();
    if (await this.goods.takeUnit(appId, goodId, holder, now)) return 'TAKEN';
    // Refused: read it back to say why.
    const good = await this.goods.findById(appId, goodId);
    if (good?.stockHolds.includes(holder)) return 'TAKEN';
    if (!good || !this.goods.isAvailable(good, now)) return 'UNAVAILABLE';
    if (this.goods.stockOf(good) === -1) return 'UNLIMITED';
    return good.stockHolds.length > 0 ? 'HELD' : 'OUT_OF_STOCK';
  }

  /** Undoes `holder`'s take, if it happened and is not final: the unit goes back. */
  release(appId: string, goodId: string, holder: string): Promise<void> {
    return this.exclusive(goodId, () => this.releaseNow(appId, goodId, holder));
  }

  private async releaseNow(appId: string, goodId: string, holder: string): Promise<void> {
    const restocked = await this.goods.restock(appId, goodId, holder);
    // Made unlimited since: there is no count to give the unit back to.
    if (!restocked) await this.goods.dropMarker(appId, goodId, 'stockHolds', holder);
  }

  /** These holders' takes are final (their redemptions are confirmed): the units stay taken, the markers go, in one write. */
  async commit(appId: string, goodId: string, holders: string[]): Promise<void> {
    if (holders.length === 0) return;
    await this.exclusive(goodId, () => this.goods.dropHolds(appId, goodId, holders));
  }

  /**
   * commit() for one holder, batched: the write queues behind the good's
   * other writes, and every commit that arrives while it waits rides in
   * the same $pullAll. A popular good then costs about one write per
   * redemption (its take) instead of two. Settles when the write is done.
   */
  commitSoon(appId: string, goodId: string, holder: string): Promise<void> {
    const key = `${appId}\u0000${goodId}`;
    return new Promise<void>((resolve, reject) => {
      let batch = this.commits.get(key);
      if (batch) {
        batch.holders.push(holder);
        batch.waiters.push({ resolve, reject });
        return;
      }
      const fresh: CommitBatch = { holders: [holder], waiters: [{ resolve, reject }] };
      batch = fresh;
      this.commits.set(key, fresh);
      this.exclusive(goodId, () => {
        // From here on, arrivals start the next batch.
        this.commits.delete(key);
        return this.goods.dropHolds(appId, goodId, fresh.holders);
      }).then(
        () => fresh.waiters.forEach((w) => w.resolve()),
        (err: unknown) => fresh.waiters.forEach((w) => w.reject(err)),
      );
    });
  }

  /** Gives back the unit a confirmed redemption took (a cancellation), once. */
  async giveBack(appId: string, goodId: string, holder: string): Promise<void> {
    await this.exclusive(goodId, () => this.goods.giveBackUnit(appId, goodId, holder));
  }

  /** The cancellation is recorded: the return marker goes. */
  clearReturn(appId: string, goodId: string, holder: string): Promise<void> {
    return this.exclusive(goodId, () => this.goods.dropMarker(appId, goodId, 'stockReturns', holder));
  }

  /** Goods of every app marked since their last sweep (a system job: each good is then handled under its own appId). */
  marked(limit: number): Promise<G[]> {
    return this.goods.markedAcrossApps(limit);
  }

  /** The sweep is done with a good: unmark it, unless a marker arrived meanwhile. */
  async unmarkIfClear(appId: string, goodId: string): Promise<void> {
    await this.exclusive(goodId, () => this.goods.unmarkIfClear(appId, goodId));
  }
}
