import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { DescService } from '@bufbuild/protobuf';
import { Code, ConnectError, type ConnectRouter, type Interceptor, type ServiceImpl } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Health } from '@ris/contracts';
import { REQUEST_ID_HEADER, requestIdFrom, runWithRequestContext, type Logger } from '@ris/logging';
import { healthService, type ReadinessCheck } from './health';
import { isPublicError, toConnectError } from './rpc-error';
import { serverTelemetry } from './rpc-telemetry';
import { tenantInterceptor, type UnscopedMethods } from './tenant';

/** A service descriptor with its implementation, type-checked together. */
export interface RpcService {
  typeName: string;
  /**
   * Registers the implementation behind `outer` (the server's interceptors:
   * telemetry, request context), then the service's own: domain errors to
   * Connect codes, and the tenant when declared. A test registers it alone
   * on an in-process router and gets the same service.
   */
  register(router: ConnectRouter, outer?: Interceptor[]): void;
}

export interface RpcServiceOptions<T extends DescService> {
  /**
   * Every call acts for the app of its request's app_id, which the tenant
   * interceptor checks and puts into the call's context (tenantOf(ctx)),
   * except the methods listed here, each with why.
   */
  tenant?: { unscoped: UnscopedMethods<T> };
}

/**
 * The one place a service's domain errors become what the caller gets:
 * their Connect code, public reason, message and details (rpcError).
 */
const domainErrors: Interceptor = (next) => async (req) => {
  let res;
  try {
    res = await next(req);
  } catch (err) {
    throw toConnectError(err);
  }
  // A streamed answer fails while it is read: its messages carry the same mapping.
  return res.stream ? { ...res, message: mappedErrors(res.message) } : res;
};

async function* mappedErrors<M>(messages: AsyncIterable<M>): AsyncIterable<M> {
  try {
    yield* messages;
  } catch (err) {
    throw toConnectError(err);
  }
}

export function rpcService<T extends DescService>(service: T, impl: Partial<ServiceImpl<T>>, options: RpcServiceOptions<T> = {}): RpcService {
  const own = [domainErrors, ...(options.tenant ? [tenantInterceptor(service, options.tenant.unscoped)] : [])];
  return {
    typeName: service.typeName,
    register: (router, outer = []) => router.service(service, impl, { interceptors: [...outer, ...own] }),
  };
}

export interface RpcServerOptions {
  host: string;
  port: number;
  logger: Logger;
  /** The service(s) this process implements; health is added for them. */
  services: RpcService[];
  readiness: ReadinessCheck[];
}

export interface RpcServer {
  port: number;
  /** Stops taking calls; those in flight get up to drainMs (default 2 s) to finish before their sessions are cut. */
  close(drainMs?: number): Promise<void>;
}

/** Binds the request id the gateway sent to everything this call does. */
function requestContextInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const requestId = requestIdFrom(req.header.get(REQUEST_ID_HEADER));
    return runWithRequestContext({ requestId }, async () => {
      const started = Date.now();
      // Probes call health every few seconds: not worth a line each.
      const quiet = req.service.typeName === Health.typeName;
      try {
        const res = await next(req);
        if (!quiet) logger.info({ procedure: req.method.name, code: 'ok', durationMs: Date.now() - started }, 'rpc');
        return res;
      } catch (err) {
        const code = err instanceof ConnectError ? Code[err.code] : 'internal';
        if (!quiet) logger.info({ procedure: req.method.name, code, durationMs: Date.now() - started }, 'rpc');
        if (isPublicError(err)) throw err;
        // Anything unexpected is logged here with its stack, and leaves the
        // service as a bare Internal error: no internals reach the caller.
        logger.error({ err, procedure: req.method.name }, 'rpc failed');
        throw err instanceof ConnectError ? err : new ConnectError('internal error', Code.Internal);
      }
    });
  };
}

/**
 * Serves Connect, gRPC and gRPC-Web over cleartext HTTP/2 on one port, plus
 * the standard health service.
 */
export async function startRpcServer(options: RpcServerOptions): Promise<RpcServer> {
  // Given to each service (its own options replace the router's, so not set on the router).
  const interceptors = [...serverTelemetry(), requestContextInterceptor(options.logger)];
  const handler = connectNodeAdapter({
    routes: (router: ConnectRouter) => {
      for (const service of options.services) service.register(router, interceptors);
      router.service(
        Health,
        healthService(
          options.services.map((s) => s.typeName),
          options.readiness,
        ),
        { interceptors },
      );
    },
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.Http2Session>();
  server.on('session', (session: http2.Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, 'rpc server listening');
  return {
    port,
    close: (drainMs = 2000) =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // GOAWAY to every caller: calls in flight finish, then the session
        // closes (otherwise open sessions keep close() waiting forever).
        for (const session of sessions) session.close();
        setTimeout(() => {
          for (const session of sessions) session.destroy();
          resolve();
        }, drainMs).unref();
      }),
  };
}
