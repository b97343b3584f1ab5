/** Fields whose values never reach the audit log, wherever they are in a before or after. */
const SECRET_FIELDS = new Set(['secret', 'apiKey', 'initialPassword', 'password', 'newPassword', 'currentPassword', 'csrfToken', 'inviteUrl']);

export const REDACTED = '[redacted]';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A leaf as JSON would write it (a Date as its ISO text, undefined as null). */
function leaf(value: unknown): Json {
  if (value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return value as Json;
}

/**
 * A JSON copy of a value with every secret field's value replaced by
 * "[redacted]", at any depth: a webhook's signing secret, an issued API key,
 * a one-time password, an invitation's link (it makes an account).
 * Iterative, so no answer nests too deep for it; the value itself is left
 * as it was (it is still being sent).
 */
export function redactSecrets(value: unknown): Json {
  const root: { value: Json } = { value: null };
  const stack: Array<{ from: unknown; put: (copy: Json) => void }> = [{ from: value, put: (copy) => (root.value = copy) }];
  while (stack.length > 0) {
    const { from, put } = stack.pop()!;
    if (from === null || typeof from !== 'object' || from instanceof Date) {
      put(leaf(from));
    } else if (Array.isArray(from)) {
      const copy: Json[] = new Array<Json>(from.length).fill(null);
      put(copy);
      from.forEach((item, i) => stack.push({ from: item, put: (c) => (copy[i] = c) }));
    } else {
      const copy: { [key: string]: Json } = {};
      put(copy);
      for (const [key, child] of Object.entries(from)) {
        if (child === undefined) continue;
        if (SECRET_FIELDS.has(key) && child !== null) copy[key] = REDACTED;
        else stack.push({ from: child, put: (c) => (copy[key] = c) });
      }
    }
  }
  return root.value;
}
