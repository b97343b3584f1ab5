import type { FraudFlag } from '../../api/types';

/** Riskiest first; among equal scores the oldest first (it has waited longest). */
export function riskiestFirst(flags: FraudFlag[]): FraudFlag[] {
  return [...flags].sort((a, b) => b.riskScore - a.riskScore || a.createdAt.localeCompare(b.createdAt));
}

/** The selection after toggling one flag, or all of the page's flags at once. */
export function toggled(selected: ReadonlySet<string>, id: string | 'all', pageIds: string[]): Set<string> {
  if (id === 'all') {
    const allSelected = pageIds.length > 0 && pageIds.every((p) => selected.has(p));
    return allSelected ? new Set() : new Set(pageIds);
  }
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}
