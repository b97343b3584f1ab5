import type { IncentiveTransaction } from '../../api/types';

const CAUSES: Record<IncentiveTransaction['cause'], string> = {
  EVENT: 'event',
  LEVEL: 'level reward',
  MILESTONE: 'milestone reward',
  CATALOG_REDEMPTION: 'catalog redemption',
  MARKETPLACE_REDEMPTION: 'marketplace redemption',
  REFUND: 'refund',
  ADJUSTMENT: 'manual adjustment',
  SCORE_SET: 'score set',
  CONVERSION_REVERSAL: 'conversion reversed',
  STREAK: 'streak reward',
  EXPIRY: 'expired',
  PENDING_RELEASE: 'pending released',
  EVENT_REVERSAL: 'event reversed',
};

/** What moved the balance in a ledger entry, in words (the API's cause, always set). */
export function causeOf(entry: Pick<IncentiveTransaction, 'cause'>): string {
  return CAUSES[entry.cause] ?? entry.cause.toLowerCase().replace(/_/g, ' ');
}
