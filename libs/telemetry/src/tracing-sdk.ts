import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { ATTR_URL_PATH, ATTR_URL_QUERY } from '@opentelemetry/semantic-conventions';
import { recordedPath } from './credential-paths';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

// Loaded only when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing.ts).

let provider: NodeTracerProvider | undefined;

/** Paths of probes and scrapes: not worth a trace each. */
const QUIET_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * The tracer provider (W3C trace context, AsyncLocalStorage context),
 * exporting over OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (/v1/traces) in
 * batches, and the instrumentations of incoming HTTP and Express, MongoDB
 * and Redis. Connect RPCs and the event bus are traced by @ris/rpc and
 * @ris/events (HTTP/2 is not covered by the HTTP instrumentation). Outgoing
 * HTTP/1 requests are only webhook deliveries: their span is the
 * dispatcher's, and no trace header goes to a customer's receiver.
 */
export function startTracing(serviceName: string): void {
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(), { scheduledDelayMillis: 1000 })],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0]),
        // A span records the path as logs do (recordedPath): no query, no credential in it.
        startIncomingSpanHook: (req) => ({ [ATTR_URL_PATH]: recordedPath(req.url ?? ''), [ATTR_URL_QUERY]: undefined }),
        ignoreOutgoingRequestHook: () => true,
      }),
      // Route handlers only: a span per middleware or router layer would cost more than it tells.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
      new MongoDBInstrumentation(),
      new IORedisInstrumentation(),
    ],
  });
}

export async function flushTracing(): Promise<void> {
  await provider?.forceFlush();
}

export const tracer = () => trace.getTracer('ris');
