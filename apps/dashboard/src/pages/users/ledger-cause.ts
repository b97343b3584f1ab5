import type { IncentiveTransaction } from '../../api/types';

const REASONS: Record<IncentiveTransaction['reason'], string> = {
  ACTION_REWARD: 'event',
  LEVEL_REWARD: 'level reward',
  MILESTONE_REWARD: 'milestone reward',
  DEBIT: 'debit',
  CREDIT: 'credit',
  SCORE_SET: 'score set',
};

/** Why a ledger entry moved the balance, in words. */
export function causeOf(entry: Pick<IncentiveTransaction, 'reason'>): string {
  return REASONS[entry.reason] ?? entry.reason.toLowerCase();
}
