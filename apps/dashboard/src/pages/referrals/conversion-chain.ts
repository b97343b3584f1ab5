import type { Conversion } from '../../api/types';

/**
 * A conversion's levels: its records (one per rewarded referrer, level 1 the
 * direct one) ordered from the referee's referrer upward.
 */
export function conversionChain(records: Conversion[], conversionId: string): Conversion[] {
  return records.filter((r) => r.conversionId === conversionId).sort((a, b) => a.level - b.level);
}
