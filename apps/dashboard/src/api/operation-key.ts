import { useMemo, useRef } from 'react';
import { ApiError } from './api-error';

/**
 * A new Idempotency-Key for a change that moves value (32 hex characters).
 * From crypto.getRandomValues, which pages served over plain http have too
 * (crypto.randomUUID exists only in secure contexts).
 */
export function newOperationKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The Idempotency-Key of the change a form is sending: the same while the
 * same body is sent again (a retry after a 5xx or a lost answer applies
 * once), a new one for a changed body (the API keeps a refusal under its key
 * too); `done()` after it succeeded, so the next change is a new one.
 * `failed(err)` after a failure: a refusal the API answered (a 4xx but 429
 * and 409 CONFLICT) changed nothing, and the API keeps it under its key for
 * 24 h, so the next try takes a new key (the same refusal would otherwise
 * be answered again); without an answer (the
 * network, a 5xx, a 429, a duplicate still running) the key stays, so that
 * a retry is the same operation.
 */
export function useOperationKey(): { keyFor: (body: unknown) => string; done: () => void; failed: (err: unknown) => void } {
  const operation = useRef<{ body: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor: (body: unknown) => {
        const json = JSON.stringify(body);
        if (operation.current?.body !== json) operation.current = { body: json, key: newOperationKey() };
        return operation.current.key;
      },
      done: () => {
        operation.current = null;
      },
      failed: (err: unknown) => {
        if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 429 && err.code !== 'CONFLICT') operation.current = null;
      },
    }),
    [],
  );
}
