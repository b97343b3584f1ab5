/**
 * A new Idempotency-Key for a change that moves value (32 hex characters).
 * From crypto.getRandomValues, which pages served over plain http have too
 * (crypto.randomUUID exists only in secure contexts).
 */
export function newOperationKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
