import { characterCount } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';

// Invariants of the fields of items and listings (costs, stock counts,
// texts, ids). The gateway validates the same rules; they are repeated
// here because the service owns the data.

/** Coins and tokens are whole numbers (the incentive ledger refuses fractions). */
export function checkCost(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(`${field} must be a whole number of 0 or more`);
  return value;
}

/** -1 means unlimited; otherwise a whole number of units. */
export function checkStock(value: number, field: string): number {
  if (!Number.isInteger(value) || value < -1) throw invalid(`${field} must be a whole number, or -1 for unlimited`);
  return value;
}

export function checkText(value: string, field: string, max: number, required: boolean): string {
  const trimmed = value.trim();
  if (required && !trimmed) throw invalid(`${field} must not be empty`);
  if (characterCount(trimmed) > max) throw invalid(`${field} must be at most ${max} characters`);
  return trimmed;
}

/** Descriptions of items and listings. */
export const DESCRIPTION_MAX = 2000;

interface PriceTerms {
  description?: string;
  coinCost?: number;
  tokenCost?: number;
}

/** The terms a catalog item and a listing both change: their description and prices, each checked when given. */
export function checkedPriceTerms(patch: PriceTerms): PriceTerms {
  const set: PriceTerms = {};
  if (patch.description !== undefined) set.description = checkText(patch.description, 'description', DESCRIPTION_MAX, false);
  if (patch.coinCost !== undefined) set.coinCost = checkCost(patch.coinCost, 'coinCost');
  if (patch.tokenCost !== undefined) set.tokenCost = checkCost(patch.tokenCost, 'tokenCost');
  return set;
}

/** The terms of a new catalog item or listing: its description (empty when not given) and prices (no tokens when not given), each checked. */
export function newPriceTerms(input: { description?: string; coinCost: number; tokenCost?: number }): Required<PriceTerms> {
  return {
    description: checkText(input.description ?? '', 'description', DESCRIPTION_MAX, false),
    coinCost: checkCost(input.coinCost, 'coinCost'),
    tokenCost: checkCost(input.tokenCost ?? 0, 'tokenCost'),
  };
}
