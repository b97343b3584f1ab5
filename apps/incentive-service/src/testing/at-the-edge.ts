import { toConnectError } from '@ris/rpc';

/**
 * A domain module's call as the service's edge answers it: a rejection
 * becomes the Connect error rpcService sends for it (toConnectError), so a
 * spec asserts the code and reason the callers see.
 */
export const atTheEdge = <T>(call: Promise<T>): Promise<T> => call.catch((err: unknown) => Promise.reject(toConnectError(err)));

/** One answer of a batch (events, board entries) as the edge maps it: an error as its Connect error, anything else as it is. */
export const outcomeAtTheEdge = <T>(outcome: T | Error): unknown => (outcome instanceof Error ? toConnectError(outcome) : outcome);
