// Metrics and tracing in a benchmark's stack, by environment flag, so the
// same scenario can be measured with them off (the default) and on:
//   BENCH_METRICS=1  every app serves /metrics on a port of its own, and each
//                    is scraped every second while the benchmark runs (what
//                    Prometheus would do; the scrape's own cost counts);
//   BENCH_TRACING=1  every app traces (OpenTelemetry SDK, HTTP/Express,
//                    MongoDB, Redis, RPC and event spans) and exports every
//                    span over OTLP/HTTP to a sink here that accepts them.
// Results then go to results/<name>.<metrics|tracing|metrics-tracing>.md,
// next to the plain run's results/<name>.md.
import { createServer } from 'node:http';
import { clearInterval, setInterval } from 'node:timers';

export async function benchTelemetry() {
  const metrics = process.env.BENCH_METRICS === '1';
  const tracing = process.env.BENCH_TRACING === '1';
  const env = {};
  let sink;
  let received = 0;
  if (tracing) {
    sink = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received += 1;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
    env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${sink.address().port}`;
  }
  const on = [metrics && 'metrics', tracing && 'tracing'].filter(Boolean);
  let scraper;
  let scrapes = 0;
  return {
    /** Spread into the stack's options; `env` is merged with the benchmark's own. */
    metrics,
    env,
    /** Appended to the results file's name. */
    suffix: on.length ? `.${on.join('-')}` : '',
    /** A line for the results file. */
    describe: () =>
      on.length
        ? `Telemetry on: ${on.join(' and ')}${metrics ? ` (each app scraped every second: ${scrapes} scrapes)` : ''}${tracing ? ` (${received} OTLP exports received)` : ''}.`
        : 'Telemetry off (METRICS_PORT=0, no OTEL_EXPORTER_OTLP_ENDPOINT): the default; BENCH_METRICS=1 / BENCH_TRACING=1 turn them on.',
    /** Starts scraping the stack's apps (BENCH_METRICS=1). */
    scrape(stack, apps) {
      if (!metrics) return;
      scraper = setInterval(() => {
        for (const app of apps) {
          fetch(`http://127.0.0.1:${stack.metricsPort(app)}/metrics`)
            .then((r) => r.text())
            .then(() => (scrapes += 1), () => undefined);
        }
      }, 1000);
      scraper.unref();
    },
    async close() {
      clearInterval(scraper);
      if (sink) await new Promise((resolve) => sink.close(resolve));
    },
  };
}
