import type { FraudFlag } from '../../api/types';

/** Riskiest first; among equal scores the oldest first (it has waited longest). */
export function riskiestFirst(flags: FraudFlag[]): FraudFlag[] {
  return [...flags].sort((a, b) => b.riskScore - a.riskScore || a.createdAt.localeCompare(b.createdAt));
}

// Selecting flags is selecting rows of a page, as on every list with bulk actions.
export { toggled } from '../../ui/row-selection';
