/** One value that differs between before and after, by its path (`referrerReward.amount`, `levels.0`). */
export interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * What an operator's change did: every leaf that was added, removed or
 * changed between the resource before and after, in path order. Objects and
 * arrays are compared member by member; anything else by value.
 */
export function auditChanges(before: unknown, after: unknown, path = ''): Change[] {
  if (isObject(before) && isObject(after) && Array.isArray(before) === Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    if (!Array.isArray(before)) keys.sort();
    return keys.flatMap((key) => {
      const at = path ? `${path}.${key}` : key;
      if (!(key in before)) return [{ path: at, kind: 'added' as const, after: after[key] }];
      if (!(key in after)) return [{ path: at, kind: 'removed' as const, before: before[key] }];
      return auditChanges(before[key], after[key], at);
    });
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (before === undefined || before === null) return [{ path: path || '(whole)', kind: 'added', after }];
  if (after === undefined || after === null) return [{ path: path || '(whole)', kind: 'removed', before }];
  return [{ path: path || '(whole)', kind: 'changed', before, after }];
}

/** A value as a short line of JSON. */
export function shown(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value);
}
