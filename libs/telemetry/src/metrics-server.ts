import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, register } from 'prom-client';
import type { Logger } from '@ris/logging';

let enabled = false;

/**
 * Whether this process exports metrics (METRICS_PORT is not 0). Instruments
 * whose recording costs more than a counter increment (per-request
 * middleware, MongoDB command monitoring) are only installed when it does.
 */
export function metricsEnabled(): boolean {
  return enabled;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics (Prometheus text format, HTTP/1.1) on a port of its
 * own, never on the app's public one, with the default process and Node
 * runtime metrics. Port 0 turns metrics off: nothing listens and the
 * costlier instruments stay out.
 *
 * A port already taken is logged, not fatal: the app works without its
 * metrics rather than not at all.
 */
export async function startMetricsServer(options: { host: string; port: number; logger: Logger }): Promise<MetricsServer | null> {
  if (options.port === 0) return null;
  // Once per process (prom-client refuses to register them twice).
  if (!enabled) collectDefaultMetrics();
  enabled = true;
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== '/metrics' && !req.url?.startsWith('/metrics?'))) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    register.metrics().then(
      (body) => res.writeHead(200, { 'content-type': register.contentType }).end(body),
      (err: unknown) => {
        options.logger.warn({ err }, 'collecting metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('collecting metrics failed\n');
      },
    );
  });
  // Scrapes are rare: no keep-alive connection is held open for them.
  server.keepAliveTimeout = 1000;
  const listening = await new Promise<boolean>((resolve) => {
    server.once('error', (err) => {
      options.logger.error({ err, port: options.port }, 'metrics server cannot listen; running without /metrics');
      resolve(false);
    });
    server.listen(options.port, options.host, () => resolve(true));
  });
  if (!listening) return null;
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, 'metrics on /metrics');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
