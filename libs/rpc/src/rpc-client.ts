import type { DescService } from '@bufbuild/protobuf';
import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { REQUEST_ID_HEADER, currentRequestId } from '@ris/logging';

/** Sends the current request id along so the callee logs under it too. */
const propagateRequestId: Interceptor = (next) => async (req) => {
  const requestId = currentRequestId();
  if (requestId && !req.header.has(REQUEST_ID_HEADER)) req.header.set(REQUEST_ID_HEADER, requestId);
  return next(req);
};

export interface ServiceClientOptions {
  /** Per-call deadline; a slow dependency fails fast as DeadlineExceeded. */
  timeoutMs?: number;
}

/** A gRPC client (HTTP/2, one multiplexed connection) for one service. */
export function createServiceClient<T extends DescService>(
  service: T,
  baseUrl: string,
  options: ServiceClientOptions = {},
): Client<T> {
  const transport = createGrpcTransport({
    baseUrl,
    interceptors: [propagateRequestId],
    defaultTimeoutMs: options.timeoutMs ?? 10_000,
    // Ping idle connections so a restarted service is noticed quickly.
    pingIntervalMs: 15_000,
    idleConnectionTimeoutMs: 60_000,
  });
  return createClient(service, transport);
}
