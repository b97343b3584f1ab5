import type { CallOptions } from '@connectrpc/connect';
import type { ItemError } from '@ris/contracts';
import { REQUEST_ID_HEADER, currentRequestId } from '@ris/logging';
import { Code, ConnectError, fromItemError, toItemError } from '@ris/rpc';
import { batchSize } from '../http/gateway-metrics';

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

/** One item's answer in a batched reply: its value under `ok`, or the error a single call would have had. */
export type ItemOutcome<K extends string, V> = { case: K; value: V } | { case: 'error'; value: ItemError } | { case: undefined; value?: undefined };

/**
 * The outcome of each item, in order, from one batched call; or, from a
 * service one release behind that does not know the batched method yet (a
 * rolling upgrade, services first or not), from one single call per item.
 */
export async function itemOutcomes<K extends string, V>(
  ok: K,
  count: number,
  batchedCall: () => Promise<Array<ItemOutcome<K, V>>>,
  singleCall: (index: number) => Promise<V>,
): Promise<Array<ItemOutcome<K, V>>> {
  batchSize.observe({ call: ok }, count);
  try {
    const outcomes = await batchedCall();
    if (outcomes.length !== count) throw new ConnectError(`${outcomes.length} outcomes for ${count} items`, Code.Internal);
    return outcomes;
  } catch (err) {
    if (!(err instanceof ConnectError && err.code === Code.Unimplemented)) throw err;
    const single = await Promise.allSettled(Array.from({ length: count }, (_, i) => singleCall(i)));
    return single.map((r) => (r.status === 'fulfilled' ? { case: ok, value: r.value } : { case: 'error' as const, value: toItemError(r.reason) }));
  }
}

/** The item's value, or its error thrown as the ConnectError a single call would have thrown. */
export function itemValue<K extends string, V>(ok: K, outcome: ItemOutcome<K, V>): V {
  if (outcome.case === 'error') throw fromItemError(outcome.value as ItemError);
  if (outcome.case === ok) return outcome.value as V;
  throw new ConnectError('the item has no outcome', Code.Internal);
}
