import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export type SearchValues<K extends string> = { [key in K]: string | null };

/** Reads `keys` from a query string (absent or empty → null). */
export function readSearch<K extends string>(params: URLSearchParams, keys: readonly K[]): SearchValues<K> {
  const values = {} as SearchValues<K>;
  for (const key of keys) values[key] = params.get(key) || null;
  return values;
}

/**
 * The query string with `patch` applied: null or '' removes a key, and
 * changing anything but the page goes back to page 1 (the old page may not
 * exist under new filters).
 */
export function patchSearch(params: URLSearchParams, patch: Record<string, string | number | null | undefined>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  if (Object.keys(patch).some((key) => !isPageKey(key) && isFilter(key))) {
    for (const key of [...next.keys()]) if (isPageKey(key) && !(key in patch)) next.delete(key);
  }
  return next;
}

/** `page`, or the page of a second list on the same view (`ledgerPage`). */
function isPageKey(key: string): boolean {
  return key === 'page' || key.endsWith('Page');
}

/** Keys that select which rows a list shows (not which row is open in a panel). */
const PANEL_KEYS = new Set(['flag', 'reward', 'payout', 'conversion', 'delivery', 'entry', 'tab', 'edit', 'action', 'snapshot', 'holders', 'days']);
function isFilter(key: string): boolean {
  return !PANEL_KEYS.has(key);
}

/** The page number a key of the URL holds (1 when absent or not a number). */
export function pageOf(params: URLSearchParams, key: string): number {
  return Math.max(1, Math.trunc(Number(params.get(key))) || 1);
}

/** The page, its filters and its open panel live in the URL: a link to it is the same view. */
export function useSearchState<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => readSearch(params, keys), [params, keys]);
  const set = useCallback(
    (patch: Partial<Record<K | 'page', string | number | null>>, options: { replace?: boolean } = {}) =>
      setParams((current) => patchSearch(current, patch), { replace: options.replace }),
    [setParams],
  );
  const page = pageOf(params, 'page');
  return { values, set, page };
}
