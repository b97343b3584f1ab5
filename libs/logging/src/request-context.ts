import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn with a request id that logs and outgoing RPC calls pick up. */
export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

export const REQUEST_ID_HEADER = 'x-request-id';

/** Accepts a caller's id when it is sane, else makes a new one. */
export function requestIdFrom(header: string | null | undefined): string {
  if (header && /^[A-Za-z0-9._:-]{1,128}$/.test(header)) return header;
  return randomUUID();
}
