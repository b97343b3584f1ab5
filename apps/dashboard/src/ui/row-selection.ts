/** The selection after toggling one row, or all of the page's rows at once (a list with bulk actions). */
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
