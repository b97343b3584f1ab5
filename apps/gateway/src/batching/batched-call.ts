import type { CallOptions } from '@connectrpc/connect';
import { REQUEST_ID_HEADER, currentRequestId } from '@ris/logging';
import { Code, ConnectError } from '@ris/rpc';

/** One request's part of a batched call, with the request it came from. */
export interface Batched<T> {
  item: T;
  requestId: string | undefined;
}

export const batched = <T>(item: T): Batched<T> => ({ item, requestId: currentRequestId() });

/**
 * A batched call is logged by the service under the request id of the
 * batch's first request (said explicitly: the batch is sent from whatever
 * context scheduled it).
 */
export function openedBy(batch: Array<Batched<unknown>>): CallOptions {
  const requestId = batch.find((b) => b.requestId)?.requestId;
  return requestId ? { headers: { [REQUEST_ID_HEADER]: requestId } } : {};
}

/** Requests waiting for a batch beyond the limit are turned away (503) instead of queueing without bound. */
export const busy = () => new ConnectError('too many requests waiting for the service', Code.Unavailable);

/**
 * A service one release behind (a rolling upgrade, services first or not)
 * does not know the batched method yet: the batch then goes as single
 * calls.
 */
export const notDeployedYet = (err: unknown) => err instanceof ConnectError && err.code === Code.Unimplemented;
