import type { Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { applyMovement, emptyBalance, type BalanceState } from './balance-fold';
import { BalanceRepository } from './balance.repository';
import { balanceId } from '../events/derived-ids';
import { Ledger, stateFromDoc } from './ledger';
import type { LedgerEntryDoc } from './ledger-entry.model';
import { LedgerEntryRepository } from './ledger-entry.repository';

export interface Drift {
  appId: string;
  userId: string;
  /** What the balance document holds. */
  stored: Partial<BalanceState>;
  /** The fold of the user's ledger entries 1..stored.seq. */
  fromLedger: Partial<BalanceState>;
  fixed: boolean;
}

export interface RebuildReport {
  users: number;
  entries: number;
  /** Balances that differ from their ledger. */
  drifted: Drift[];
  /** Users whose ledger has entries beyond the balance (a writer in flight, or one that crashed); settled when fixing. */
  pendingTails: Array<{ appId: string; userId: string; balanceSeq: number; ledgerSeq: number; settled: boolean }>;
  /** Users whose ledger positions are not 1..n: cannot be fixed automatically. */
  gaps: Array<{ appId: string; userId: string; missingSeq: number }>;
  /** Balance documents without any ledger entry. */
  orphanBalances: Array<{ appId: string; userId: string }>;
}

/** The parts of a balance the comparison looks at, in a stable JSON form. */
function comparable(s: BalanceState): Partial<BalanceState> {
  return {
    seq: s.seq,
    coins: s.coins,
    xp: s.xp,
    tokens: s.tokens,
    coinsEarned: s.coinsEarned,
    rewardedEvents: s.rewardedEvents,
    referrals: s.referrals,
    levelsGranted: [...s.levelsGranted].sort((a, b) => a - b),
    milestones: [...s.milestones].sort(),
    perks: [...s.perks].sort(),
    actions: Object.fromEntries(Object.entries(s.actions).sort(([a], [b]) => a.localeCompare(b))),
    periods: Object.fromEntries(Object.entries(s.periods).sort(([a], [b]) => a.localeCompare(b))),
    xpChangedAt: s.xpChangedAt,
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Recomputes every balance from the ledger (balance-fold.ts, the same
 * function live writes use) and reports where they differ. With fix, a
 * drifted balance is replaced by its recomputation (compare-and-set on its
 * seq, so a concurrent live write wins and the user is simply checked again
 * next time) and pending tails are applied the normal way. Safe to run
 * while the service runs.
 */
export async function rebuildBalances(db: Connection, logger: Logger, options: { appId?: string; fix: boolean }): Promise<RebuildReport> {
  const entries = new LedgerEntryRepository(db);
  const balances = new BalanceRepository(db);
  const ledger = new Ledger(entries, balances, logger);
  const report: RebuildReport = { users: 0, entries: 0, drifted: [], pendingTails: [], gaps: [], orphanBalances: [] };
  const seen = new Set<string>();

  let current: { appId: string; userId: string; entries: LedgerEntryDoc[] } | null = null;
  const finish = async (group: { appId: string; userId: string; entries: LedgerEntryDoc[] }) => {
    report.users += 1;
    seen.add(balanceId(group.appId, group.userId));
    const missing = group.entries.findIndex((e, i) => e.seq !== i + 1);
    if (missing !== -1) {
      report.gaps.push({ appId: group.appId, userId: group.userId, missingSeq: missing + 1 });
      return;
    }
    const doc = await balances.ofUser(group.appId, group.userId);
    const stored = stateFromDoc(doc);
    const lastSeq = group.entries.length;
    if (lastSeq > stored.seq) {
      let settled = false;
      if (options.fix) {
        settled = (await ledger.settled(group.appId, group.userId)).state.seq >= lastSeq;
      }
      report.pendingTails.push({ appId: group.appId, userId: group.userId, balanceSeq: stored.seq, ledgerSeq: lastSeq, settled });
    }
    const expected = group.entries.slice(0, stored.seq).reduce<BalanceState>((s, e) => applyMovement(s, e), emptyBalance());
    if (same(comparable(expected), comparable(stored))) return;
    let fixed = false;
    if (options.fix && doc) {
      const { seq, ...fields } = expected;
      fixed = await balances.replaceAt(group.appId, doc._id, seq, fields);
    }
    report.drifted.push({ appId: group.appId, userId: group.userId, stored: comparable(stored), fromLedger: comparable(expected), fixed });
  };

  for await (const entry of entries.inUserOrder(options.appId)) {
    report.entries += 1;
    if (!current || current.appId !== entry.appId || current.userId !== entry.userId) {
      if (current) await finish(current);
      current = { appId: entry.appId, userId: entry.userId, entries: [] };
    }
    current.entries.push(entry);
  }
  if (current) await finish(current);

  for await (const doc of balances.all(options.appId)) {
    if (!seen.has(doc._id)) report.orphanBalances.push({ appId: doc.appId, userId: doc.userId });
  }
  return report;
}
