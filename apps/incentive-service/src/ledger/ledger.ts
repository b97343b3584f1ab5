import type { OutboxFields } from '@ris/events';
import type { Logger } from '@ris/logging';
import { SerialByKey } from '@ris/mongo';
import { applyMovement, balanceAmounts, balanceUpdate, emptyBalance, repayingDebt, type BalanceState, type Movement } from './balance-fold';
import type { BalanceDoc } from './balance.model';
import type { BalanceRepository } from './balance.repository';
import { balanceId, ledgerEntryId } from '../events/derived-ids';
import type { LedgerEntryDoc } from './ledger-entry.model';
import type { LedgerEntryRepository } from './ledger-entry.repository';
import { coinsIssued, coinsRedeemed } from './ledger-metrics';
import { NO_EXPIRY, lotExpiry, type CreditTerms } from './credit-expiry';

/**
 * The ledger and the balances, and the one invariant that ties them:
 *
 *   balance(user) = fold(ledger entries 1..balance.seq of user)   (balance-fold.ts)
 *
 * How it holds without transactions:
 *
 * 1. Each user's entries occupy numbered slots 1, 2, 3, … and slot n's _id
 *    is derived from (app, user, n). To move a balance, a writer reads it
 *    at version c, inserts its entries into slots c+1… (the _id index lets
 *    exactly one entry take each slot, and the {appId, key} unique index
 *    lets each movement key exist once), then applies them to the balance
 *    with a compare-and-set on seq = c. Entries are immutable.
 * 2. Because a slot can only be filled after the balance reached the slot
 *    before it, at most one user entry is ever "inserted but not yet
 *    applied": the tail at seq + 1. Whoever finds it (a writer that lost
 *    the race for the slot, a reader, the rebuild) applies it with the same
 *    compare-and-set, so a crashed writer's entry is finished by the next
 *    one, and no entry is ever applied twice: the balance's seq moves past
 *    it exactly once.
 * 3. Rules that depend on the balance (Debit's "no negative", cooldown,
 *    maxRepeats) are evaluated against version c and written with the
 *    compare-and-set on c: if anything changed in between, the write fails
 *    and the writer re-reads. A debit's update also carries $gte guards on
 *    coins and tokens, which the version check already implies.
 *
 * So sum(ledger) = balance whenever no write is in flight, and at any moment
 * the difference is at most the one tail entry per user, which any reader
 * can settle.
 */
export type AppendResult =
  | { kind: 'applied'; entries: LedgerEntryDoc[]; state: BalanceState }
  | {
      kind: 'conflict';
      /** Our entries that did get in (a prefix of the movements), now applied. */
      entries: LedgerEntryDoc[];
      /** A movement key that already existed in the ledger (the movement was recorded before). */
      keyTaken: string | null;
    };

export type AfterApply = (appId: string, userId: string, state: BalanceState) => Promise<void>;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function stateFromDoc(doc: BalanceDoc | null): BalanceState {
  if (!doc) return emptyBalance();
  const empty = emptyBalance();
  return {
    seq: doc.seq,
    coins: doc.coins ?? 0,
    xp: doc.xp ?? 0,
    tokens: doc.tokens ?? 0,
    coinsEarned: doc.coinsEarned ?? 0,
    rewardedEvents: doc.rewardedEvents ?? 0,
    referrals: doc.referrals ?? 0,
    actions: Object.fromEntries(Object.entries(doc.actions ?? {}).map(([k, v]) => [k, { count: v.count, lastAt: new Date(v.lastAt) }])),
    periods: Object.fromEntries(Object.entries(doc.periods ?? {}).map(([k, v]) => [k, { xp: v.xp, at: new Date(v.at) }])),
    xpChangedAt: doc.xpChangedAt ? new Date(doc.xpChangedAt) : null,
    levelsGranted: doc.levelsGranted ?? empty.levelsGranted,
    milestones: doc.milestones ?? empty.milestones,
    perks: doc.perks ?? empty.perks,
    // Absent on balances from before expiry, pending credits and debts.
    coinLots: (doc.coinLots ?? []).map((l) => ({ expiresAt: new Date(l.expiresAt), amount: l.amount })),
    tokenLots: (doc.tokenLots ?? []).map((l) => ({ expiresAt: new Date(l.expiresAt), amount: l.amount })),
    pendingCoins: doc.pendingCoins ?? 0,
    pendingTokens: doc.pendingTokens ?? 0,
    pending: (doc.pending ?? []).map((p) => ({ key: p.key, coins: p.coins, tokens: p.tokens, releaseAt: new Date(p.releaseAt) })),
    debtCoins: doc.debtCoins ?? 0,
    debtTokens: doc.debtTokens ?? 0,
  };
}

/**
 * A movement as it is written at `state`: a credit stamped with when its
 * lot expires (the app's terms, unless its writer set it), and, while the
 * user owes a debt, split into what repays it and what is credited.
 */
function asWritten(state: BalanceState, m: Movement, terms: CreditTerms): Movement {
  let out = m;
  if (m.coins > 0 && m.coinsExpireAt === undefined) out = { ...out, coinsExpireAt: lotExpiry(m.createdAt, terms.coinExpiryDays) };
  if (m.tokens > 0 && m.tokensExpireAt === undefined) out = { ...out, tokensExpireAt: lotExpiry(m.createdAt, terms.tokenExpiryDays) };
  return repayingDebt(state, out);
}

export class Ledger {
  // One user's writers one after another in this process: it spares
  // concurrent writers of a user losing a race and planning again.
  private readonly queue = new SerialByKey();
  // Each compare-and-set of a balance on its own, whoever calls it (a
  // writer, or a reader settling the tail in settled()): on MongoDB the
  // conditional update is atomic anyway; FerretDB v1 runs it as a read then
  // a write, so two concurrent ones could both match and both $inc.
  private readonly applying = new SerialByKey();

  constructor(
    readonly entries: LedgerEntryRepository,
    readonly balances: BalanceRepository,
    private readonly logger: Logger,
    /** Runs after every balance change with the new state (the leaderboard listens). */
    private readonly afterApply: AfterApply = async () => undefined,
    /** Hears the entries a writer inserted (the engine's series count them; it returns at once and never throws). */
    private readonly recorded: (appId: string, entries: LedgerEntryDoc[]) => void = () => undefined,
    /** The app's credit terms (its expiry settings), read when a movement credits coins or tokens. */
    private readonly creditTerms: (appId: string) => Promise<CreditTerms> = async () => NO_EXPIRY,
  ) {}

  /** Runs a user's balance-changing flow after the ones already running in this process. */
  serialized<T>(appId: string, userId: string, work: () => Promise<T>): Promise<T> {
    return this.queue.run(balanceId(appId, userId), work);
  }

  /** The stored balance (may lack one unapplied tail entry; see settled()). */
  async read(appId: string, userId: string): Promise<BalanceState> {
    return stateFromDoc(await this.balances.ofUser(appId, userId));
  }

  /** The balance with every inserted entry applied: what readers should show. */
  async settled(appId: string, userId: string): Promise<{ state: BalanceState; updatedAt: Date | null }> {
    for (;;) {
      const doc = await this.balances.ofUser(appId, userId);
      const state = stateFromDoc(doc);
      const tail = await this.entryAt(appId, userId, state.seq + 1);
      if (!tail) return { state, updatedAt: doc?.updatedAt ?? null };
      await this.apply(appId, userId, state, [tail]);
    }
  }

  entryAt(appId: string, userId: string, seq: number): Promise<LedgerEntryDoc | null> {
    return this.entries.at(appId, userId, seq);
  }

  findByKey(appId: string, key: string): Promise<LedgerEntryDoc | null> {
    return this.entries.withKey(appId, key);
  }

  /**
   * Records movements after `base` (the balance as the caller read it and
   * planned against) and applies them. 'conflict' means another writer got
   * there first: the caller re-reads (read()) and plans again. `carried[i]`:
   * events movement i's entry stores with it (see Outbox), so they exist
   * exactly if the entry does.
   */
  async append(appId: string, userId: string, base: BalanceState, movements: Movement[], carried: OutboxFields[] = []): Promise<AppendResult> {
    if (movements.length === 0) return { kind: 'applied', entries: [], state: base };
    const terms = movements.some((m) => m.coins > 0 || m.tokens > 0) ? await this.creditTerms(appId) : NO_EXPIRY;
    const docs: LedgerEntryDoc[] = [];
    let state = base;
    for (const [i, planned] of movements.entries()) {
      const movement = asWritten(state, planned, terms);
      state = applyMovement(state, movement);
      docs.push({
        ...movement,
        // As the schema's default would store it: a movement no event or grant triggered.
        triggeredBy: movement.triggeredBy ?? null,
        ...carried[i],
        _id: ledgerEntryId(appId, userId, state.seq),
        appId,
        userId,
        seq: state.seq,
        balanceAfter: balanceAmounts(state),
      });
    }
    let inserted = docs.length;
    let keyTaken: string | null = null;
    if (!(await this.entries.fill(docs))) ({ inserted, keyTaken } = await this.whatGotIn(appId, docs));
    const ours = docs.slice(0, inserted);
    for (const entry of ours) {
      if (entry.coins > 0) coinsIssued.inc(entry.coins);
      else if (entry.coins < 0) coinsRedeemed.inc(-entry.coins);
    }
    // Counted by the writer that inserted them; the count does not wait for anything, nor anyone for it.
    if (ours.length > 0) this.recorded(appId, ours);
    if (ours.length > 0 && !(await this.apply(appId, userId, base, ours))) {
      // Someone applied our entries for us (they found them as the tail).
      await this.settled(appId, userId);
    }
    if (inserted === docs.length) return { kind: 'applied', entries: ours, state };
    return { kind: 'conflict', entries: ours, keyTaken };
  }

  /**
   * After an ordered insert stopped on a duplicate: how many of our entries
   * are in, and whether the first one that is not failed on its slot
   * (someone else's entry is there) or on its key (recorded before).
   */
  private async whatGotIn(appId: string, docs: LedgerEntryDoc[]): Promise<{ inserted: number; keyTaken: string | null }> {
    let inserted = 0;
    for (const doc of docs) {
      const there = await this.entries.findById(appId, doc._id);
      // The same key in the same slot: a concurrent writer of the same
      // movement (e.g. a recovered event) stored exactly our entry.
      if (there && there.key === doc.key) {
        inserted += 1;
        continue;
      }
      return { inserted, keyTaken: there ? null : doc.key };
    }
    return { inserted, keyTaken: null };
  }

  /**
   * Applies entries (consecutive, starting at base.seq + 1) to the balance
   * if it is still at base.seq. Returns false when it was not (someone else
   * applied them, or something else moved first).
   */
  private apply(appId: string, userId: string, base: BalanceState, entries: LedgerEntryDoc[]): Promise<boolean> {
    return this.applying.run(balanceId(appId, userId), () => this.compareAndSet(appId, userId, base, entries));
  }

  private async compareAndSet(appId: string, userId: string, base: BalanceState, entries: LedgerEntryDoc[]): Promise<boolean> {
    const next = entries.reduce<BalanceState>((s, e) => applyMovement(s, e), base);
    // Never below zero (XP either: an adjustment can take it): the repository guards it on top of the version.
    // Two first-ever writers of a user creating the balance at once: one wins, the other reads false.
    if (!(await this.balances.advance(appId, userId, base.seq, balanceUpdate(base, next), new Date()))) return false;
    await this.afterApply(appId, userId, next).catch((err) => this.logger.warn({ err, appId }, 'after-apply hook failed'));
    return true;
  }

  /**
   * After a conflict: waits a moment for the winner to apply its entries,
   * then applies whatever tail is still pending, and returns the settled
   * balance to plan against again.
   */
  async afterConflict(appId: string, userId: string, attempt: number): Promise<BalanceState> {
    // The winner normally applies within a millisecond or two; helping at
    // once would only make every loser race for the same compare-and-set.
    await pause(Math.min(50, 2 + attempt * 3) * Math.random());
    return (await this.settled(appId, userId)).state;
  }
}
