import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { Gauge, Histogram } from 'prom-client';
import { SpanKind, inSpan, metricsEnabled, traceHeaders, tracingEnabled } from '@ris/telemetry';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const LABELS = ['service', 'method', 'code'] as const;

const serverDuration = new Histogram({
  name: 'ris_rpc_server_duration_seconds',
  help: 'RPCs this service answered: latency by service, method and Connect code',
  labelNames: LABELS,
  buckets: BUCKETS,
});

const clientDuration = new Histogram({
  name: 'ris_rpc_client_duration_seconds',
  help: 'RPCs this process made: latency by service, method and Connect code (unavailable: the callee could not be reached)',
  labelNames: LABELS,
  buckets: BUCKETS,
});

// Calls being answered: what a stopping service still drains, and what a
// test waits on before it stops one (a condition instead of a sleep).
const serverInFlight = new Gauge({
  name: 'ris_rpc_server_in_flight',
  help: 'RPCs this service is answering now, by service and method',
  labelNames: ['service', 'method'] as const,
});

const counted: Interceptor = (next) => async (req) => {
  const labels = { service: req.service.typeName, method: req.method.name };
  serverInFlight.inc(labels);
  try {
    return await next(req);
  } finally {
    serverInFlight.dec(labels);
  }
};

/** A Connect code as on the wire: ok, not_found, unavailable… */
function codeOf(err?: unknown): string {
  if (err === undefined) return 'ok';
  const code = err instanceof ConnectError ? err.code : Code.Unknown;
  return Code[code].replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}

function timed(histogram: Histogram<(typeof LABELS)[number]>): Interceptor {
  return (next) => async (req) => {
    const labels = { service: req.service.typeName, method: req.method.name };
    const end = histogram.startTimer(labels);
    try {
      const res = await next(req);
      end({ code: 'ok' });
      return res;
    } catch (err) {
      end({ code: codeOf(err) });
      throw err;
    }
  };
}

/** The server side of a call: a span continuing the caller's trace (its traceparent header). */
const serverSpan: Interceptor = (next) => (req) =>
  inSpan(`${req.service.typeName}/${req.method.name}`, { kind: SpanKind.SERVER, parent: req.header, attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': req.service.typeName, 'rpc.method': req.method.name } }, () => next(req));

/** The client side: a span, whose context goes along in the call's headers. */
const clientSpan: Interceptor = (next) => (req) =>
  inSpan(`${req.service.typeName}/${req.method.name}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'connect_rpc', 'rpc.service': req.service.typeName, 'rpc.method': req.method.name } }, () => {
    for (const [key, value] of Object.entries(traceHeaders())) req.header.set(key, value);
    return next(req);
  });

/**
 * Interceptors of the serving side: latency per method and code and the
 * calls in flight when metrics are on, a span when tracing is on; none at all otherwise. Decided
 * when the server is built (metrics and tracing start before it).
 */
export function serverTelemetry(): Interceptor[] {
  return [...(tracingEnabled() ? [serverSpan] : []), ...(metricsEnabled() ? [timed(serverDuration), counted] : [])];
}

/** Interceptors of a client, as serverTelemetry for the calling side. */
export function clientTelemetry(): Interceptor[] {
  return [...(tracingEnabled() ? [clientSpan] : []), ...(metricsEnabled() ? [timed(clientDuration)] : [])];
}
