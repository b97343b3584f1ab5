import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram } from 'prom-client';

// The gateway's metrics. Labels stay low-cardinality: the route template
// (/api/v1/campaigns/:campaignId), never a path with ids or codes in it.

const requestDuration = new Histogram({
  name: 'ris_http_request_duration_seconds',
  help: 'HTTP requests the gateway answered: latency by method, route template and status class (its _count is the request count)',
  labelNames: ['method', 'route', 'status_class'],
  buckets: [0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
});

// What a stopping gateway still drains (and what a test waits on before it stops one).
const requestsInFlight = new Gauge({
  name: 'ris_http_requests_in_flight',
  help: 'HTTP requests the gateway has received and not yet answered',
});

export const rateLimitRefusals = new Counter({
  name: 'ris_rate_limit_refusals_total',
  help: 'Requests answered 429 because their app was over its rate limit',
});

export const idempotentReplays = new Counter({
  name: 'ris_idempotent_replays_total',
  help: 'POSTs answered from the kept response of an earlier one with the same Idempotency-Key',
});

export const batchSize = new Histogram({
  name: 'ris_batch_size',
  help: 'Requests sent together as one batched call to a service, by call (click: RecordClicks, entry: GetLeaderboardEntries)',
  labelNames: ['call'],
  buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
});

/**
 * Times every request: one histogram observation when its answer is
 * finished; counts those in flight. The route is the template ApiRouter matched (res.locals.route),
 * "unmatched" for anything else (404s, the docs page).
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  requestsInFlight.inc();
  // close: answered, or the client went away first.
  res.once('close', () => requestsInFlight.dec());
  res.once('finish', () => {
    const route = (res.locals.route as string | undefined) ?? 'unmatched';
    const statusClass = `${Math.floor(res.statusCode / 100)}xx`;
    requestDuration.observe({ method: req.method, route, status_class: statusClass }, Number(process.hrtime.bigint() - started) / 1e9);
  });
  next();
};
