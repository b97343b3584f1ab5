import { basename, dirname } from 'node:path';
import type * as TracingSdk from './tracing-sdk';

let on = false;

/** Whether this process traces (OTEL_EXPORTER_OTLP_ENDPOINT was set when it started). */
export function tracingEnabled(): boolean {
  return on;
}

/**
 * Starts the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set;
 * otherwise does nothing at all: the SDK and the instrumentations are not
 * even loaded, and the trace hooks of the libraries (RPC interceptors, event
 * headers, log fields) are not installed, so tracing off costs nothing on
 * the hot paths.
 *
 * It must run before express, http, mongodb and ioredis are loaded (their
 * instrumentations patch them as they load), so it is required
 * synchronously, from the first import of each app's main.ts
 * (start-tracing.ts). The service name is OTEL_SERVICE_NAME, else the
 * app's bundle directory (dist/apps/<app>/main.js).
 */
export function startTracingIfConfigured(): void {
  if (on) return;
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint || process.env.OTEL_SDK_DISABLED === 'true') return;
  const service = process.env.OTEL_SERVICE_NAME?.trim() || basename(dirname(process.argv[1] ?? 'app/main.js'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when tracing is on, and before the modules it instruments
  const sdk = require('./tracing-sdk') as typeof TracingSdk;
  sdk.startTracing(service);
  on = true;
}

/** Sends the spans still buffered (a stopping process); nothing when tracing is off. */
export async function flushTraces(): Promise<void> {
  if (!on) return;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- already loaded by startTracingIfConfigured
  const sdk = require('./tracing-sdk') as typeof TracingSdk;
  await sdk.flushTracing();
}
