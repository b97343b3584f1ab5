import { Counter } from 'prom-client';
import { createLogger } from '@ris/logging';
import { freeTcpPort } from '@ris/testing';
import { inSpan, SpanKind, traceHeaders } from './trace-context';
import { metricsEnabled, startMetricsServer } from './metrics-server';
import { tracingEnabled } from './tracing';

const logger = createLogger('telemetry-test', 'silent');

describe('metrics server', () => {
  it('is off with port 0: nothing listens and the costlier instruments stay out', async () => {
    expect(await startMetricsServer({ host: '127.0.0.1', port: 0, logger })).toBeNull();
    expect(metricsEnabled()).toBe(false);
  });

  it('serves our metrics and the default process and Node ones on GET /metrics only', async () => {
    const counter = new Counter({ name: 'ris_test_things_total', help: 'things', labelNames: ['kind'] });
    counter.inc({ kind: 'a' }, 2);
    const server = await startMetricsServer({ host: '127.0.0.1', port: await freeTcpPort(), logger });
    try {
      expect(metricsEnabled()).toBe(true);
      const res = await fetch(`http://127.0.0.1:${server?.port}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      const body = await res.text();
      expect(body).toContain('ris_test_things_total{kind="a"} 2');
      expect(body).toMatch(/^process_cpu_seconds_total \d/m);
      expect(body).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
      expect((await fetch(`http://127.0.0.1:${server?.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server?.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server?.close();
    }
  });

  it('a taken port leaves the process running without metrics', async () => {
    const port = await freeTcpPort();
    const first = await startMetricsServer({ host: '127.0.0.1', port, logger });
    try {
      expect(await startMetricsServer({ host: '127.0.0.1', port, logger })).toBeNull();
    } finally {
      await first?.close();
    }
  });
});

describe('tracing off', () => {
  it('loads no SDK and adds nothing: spans just run their work, no headers go out', async () => {
    expect(tracingEnabled()).toBe(false);
    expect(Object.keys(require.cache).filter((path) => path.includes('@opentelemetry/sdk-trace'))).toEqual([]);
    expect(await inSpan('work', { kind: SpanKind.INTERNAL }, async (span) => (span === undefined ? 'ran' : 'traced'))).toBe('ran');
    expect(traceHeaders()).toEqual({});
  });
});
