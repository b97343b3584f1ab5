import type { EnumName, LedgerCause as LedgerCauseEnum } from '@ris/contracts';
import type { LedgerReason } from './balance-fold';

/** What moved a balance (the contract's LedgerCause): recorded with each ledger entry. */
export type LedgerCause = EnumName<typeof LedgerCauseEnum>;

/** The causes a Debit may name (a redemption's); a Credit's is REFUND. */
export const DEBIT_CAUSES: ReadonlySet<LedgerCause> = new Set(['CATALOG_REDEMPTION', 'MARKETPLACE_REDEMPTION']);
export const CREDIT_CAUSES: ReadonlySet<LedgerCause> = new Set(['REFUND']);

/** The one cause of each reason that has one (DEBIT and CREDIT depend on what they pay for). */
const CAUSE_OF_REASON: Partial<Record<LedgerReason, LedgerCause>> = {
  ACTION_REWARD: 'EVENT',
  LEVEL_REWARD: 'LEVEL',
  MILESTONE_REWARD: 'MILESTONE',
  SCORE_SET: 'SCORE_SET',
  ADJUSTMENT: 'ADJUSTMENT',
  CREDIT: 'REFUND',
  REVERSAL: 'CONVERSION_REVERSAL',
  STREAK_REWARD: 'STREAK',
};

/**
 * The cause of an entry written before causes were recorded, from its
 * reason and source: a DEBIT's source is the catalog-marketplace service's
 * operation id, `<redemption id>:debit`, whose prefix names the kind of
 * redemption (mkr_ marketplace, rdm_ catalog); a CREDIT is the refund or
 * the undoing of one. Only that service calls Debit and Credit.
 */
export function derivedCause(reason: LedgerReason, sourceId: string): LedgerCause {
  if (reason === 'DEBIT') return sourceId.startsWith('mkr_') ? 'MARKETPLACE_REDEMPTION' : 'CATALOG_REDEMPTION';
  return CAUSE_OF_REASON[reason] ?? 'EVENT';
}

/** An entry's cause: the one recorded with it, or derived for an entry from before (never null). */
export function causeOf(entry: { reason: LedgerReason; sourceId: string; cause?: LedgerCause | null }): LedgerCause {
  return entry.cause ?? derivedCause(entry.reason, entry.sourceId);
}
