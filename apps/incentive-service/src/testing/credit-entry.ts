import { ledgerEntryId } from '../events/derived-ids';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';
import type { Amounts } from '../ledger/reward-amounts';

/**
 * A complete CREDIT entry of `coins` in slot `seq` of a user's ledger, as
 * the ledger stores one: for specs that put an entry in place themselves
 * (a writer that crashed before applying it, a slot already taken).
 */
export function creditEntry(appId: string, userId: string, seq: number, key: string, coins: number, balanceAfter: Amounts): LedgerEntryDoc {
  return {
    _id: ledgerEntryId(appId, userId, seq),
    appId,
    userId,
    seq,
    key,
    reason: 'CREDIT',
    coins,
    xp: 0,
    tokens: 0,
    sourceId: key,
    actionKey: null,
    actionType: null,
    level: null,
    milestoneKey: null,
    perks: [],
    description: null,
    createdAt: new Date(),
    balanceAfter,
  };
}
