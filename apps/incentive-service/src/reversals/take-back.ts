import { reversalEntryKey } from '../events/derived-ids';
import type { LedgerReversal, Movement } from '../ledger/balance-fold';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';
import type { Amounts } from '../ledger/reward-amounts';

/** What a reversal does with a reward: the part it takes back now, and the part it cannot. */
export interface TakeBack {
  /** Never more than the balance holds: a balance never goes below zero. */
  taken: Amounts;
  /** Spent before the reversal came: recorded on the entry for an operator to see, never owed. */
  unrecovered: Amounts;
}

const part = (rewarded: number, held: number) => Math.max(0, Math.min(rewarded, held));

/** How much of a reward a reversal takes back from a balance that holds `held` now (coins, XP and tokens alike). */
export function takeBack(rewarded: Amounts, held: Amounts): TakeBack {
  const taken = { coins: part(rewarded.coins, held.coins), xp: part(rewarded.xp, held.xp), tokens: part(rewarded.tokens, held.tokens) };
  return { taken, unrecovered: { coins: rewarded.coins - taken.coins, xp: rewarded.xp - taken.xp, tokens: rewarded.tokens - taken.tokens } };
}

/** What every REVERSAL of a reward entry names: its key (once per event), the event and the action it credited. */
export function reversalOf(reward: LedgerEntryDoc): Pick<Movement, 'key' | 'reason' | 'sourceId' | 'actionKey' | 'actionType' | 'level' | 'milestoneKey' | 'perks'> {
  return {
    key: reversalEntryKey(reward.sourceId),
    reason: 'REVERSAL',
    // The reward's event: which credit this takes back.
    sourceId: reward.sourceId,
    actionKey: reward.actionKey,
    actionType: reward.actionType,
    level: null,
    milestoneKey: null,
    perks: [],
  };
}

/**
 * The REVERSAL of a reward entry, planned against the balance `held` at
 * the version it will be written at (the ledger's compare-and-set), so a
 * spend racing it is either before it (less to take back) or after it.
 */
export function reversalMovement(reward: LedgerEntryDoc, reversal: LedgerReversal, held: Amounts, at: Date): Movement {
  const { taken, unrecovered } = takeBack(reward, held);
  return {
    ...reversalOf(reward),
    cause: 'CONVERSION_REVERSAL',
    // 0 - n rather than -n: nothing taken is 0, not -0.
    coins: 0 - taken.coins,
    xp: 0 - taken.xp,
    tokens: 0 - taken.tokens,
    description: `Conversion ${reversal.conversionId} reversed (${reversal.reason})`,
    unrecovered,
    reversal,
    createdAt: at,
  };
}
