import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrometheusServer, WebhookReceiver, createTestApp, eventually, type TestApp } from '@ris/testing';

const observability = join(__dirname, '..', '..', '..', 'deploy', 'observability');

/**
 * Every expression of the alert rules (`expr:`, one line or a `|` block)
 * and of the Grafana dashboard (`targets[].expr`), with where it comes from.
 */
function shippedExpressions(): Array<{ where: string; expr: string }> {
  const found: Array<{ where: string; expr: string }> = [];
  const lines = readFileSync(join(observability, 'alert-rules.yml'), 'utf8').split('\n');
  let alert = '';
  for (let i = 0; i < lines.length; i += 1) {
    const named = /^\s*- alert: (\S+)/.exec(lines[i]);
    if (named) alert = named[1];
    const expr = /^(\s*)expr: (.*)$/.exec(lines[i]);
    if (!expr) continue;
    if (expr[2].trim() !== '|') {
      found.push({ where: `alert-rules.yml ${alert}`, expr: expr[2].trim() });
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1].trim() === '' || lines[i + 1].search(/\S/) > expr[1].length)) block.push(lines[(i += 1)].trim());
    found.push({ where: `alert-rules.yml ${alert}`, expr: block.join(' ').trim() });
  }
  const dashboard = JSON.parse(readFileSync(join(observability, 'grafana-dashboard.json'), 'utf8')) as {
    panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  };
  for (const panel of dashboard.panels) for (const target of panel.targets ?? []) found.push({ where: `grafana-dashboard.json "${panel.title}"`, expr: target.expr });
  return found;
}

/** The metric names an expression reads (identifiers followed by a selector, a range or its end), without PromQL's own words. */
function metricNamesIn(expr: string): string[] {
  const words = new Set(['sum', 'max', 'min', 'rate', 'increase', 'deriv', 'histogram_quantile', 'by', 'and', 'or', 'unless', 'le', 'without', 'count', 'avg']);
  const stripped = expr.replace(/\{[^}]*\}/g, '{}').replace(/"[^"]*"/g, '""').replace(/\([^()]*?\bby\b/g, '(');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\b(?=\s*(\{|\[|\)|$|\s*[/><=!*+-]|\s+and\b|\s+or\b))/g)) {
    if (!words.has(match[1]) && !/^\d/.test(match[1])) names.add(match[1]);
  }
  return [...names].filter((name) => name.startsWith('ris_') || name.startsWith('process_') || name.startsWith('nodejs_') || name === 'up');
}

/** A histogram's or summary's series names back to the metric's own name. */
const family = (name: string) => name.replace(/_(bucket|count|sum)$/, '');

// A real Prometheus scrapes the end-to-end stack's apps (each on its own
// METRICS_PORT); requests go through the API, and what they did is read
// back with PromQL. The rules and the dashboard ship expressions: each must
// parse and evaluate on that Prometheus, and name metrics the apps export.
describe('metrics scraped by Prometheus', () => {
  let prometheus: PrometheusServer;
  let receiver: WebhookReceiver;
  let app: TestApp;
  const ports = JSON.parse(process.env.E2E_METRICS_PORTS ?? '{}') as Record<string, number>;

  beforeAll(async () => {
    prometheus = await PrometheusServer.start(
      Object.entries(ports).map(([name, port]) => ({ app: name, port })),
      { ruleFiles: [join(observability, 'alert-rules.yml')] },
    );
    receiver = await WebhookReceiver.start();
    app = await createTestApp('metrics');
    // Every app scraped at least once: its metrics (and their metadata) are in.
    await eventually(() => prometheus.targets(), (t) => t.length === 7 && t.every((target) => target.health === 'up'), 20_000);
  }, 60_000);

  afterAll(async () => {
    await prometheus?.stop();
    await receiver?.close();
  });

  it('scrapes every app, on a port of its own', async () => {
    expect(Object.keys(ports).sort()).toEqual(
      ['catalog-marketplace-service', 'fraud-service', 'gateway', 'incentive-service', 'referral-service', 'reward-service', 'webhook-service'],
    );
    const targets = await eventually(() => prometheus.targets(), (t) => t.length === 7 && t.every((target) => target.health === 'up'), 20_000);
    expect(targets.map((t) => t.labels.app).sort()).toEqual(Object.keys(ports).sort());
    // The public port serves no metrics.
    expect((await fetch(`${process.env.E2E_GATEWAY_URL}/metrics`)).status).toBe(404);
  });

  it('counts what requests did, per route, method, consumer and outcome', async () => {
    const sum = (expr: string) => prometheus.value(`sum(${expr})`).then((v) => v ?? 0);
    const before = {
      campaigns: await sum('ris_http_request_duration_seconds_count{route="/api/v1/campaigns",method="POST",status_class="2xx"}'),
      notFound: await sum('ris_http_request_duration_seconds_count{route="/api/v1/campaigns/:campaignId",status_class="4xx"}'),
      replays: await sum('ris_idempotent_replays_total'),
      conversions: await sum('ris_conversions_total'),
      clicks: await sum('ris_clicks_total'),
      createCampaign: await sum('ris_rpc_server_duration_seconds_count{app="referral-service",method="CreateCampaign",code="ok"}'),
      notFoundRpc: await sum('ris_rpc_client_duration_seconds_count{app="gateway",method="GetCampaign",code="not_found"}'),
      webhookOk: await sum('ris_webhook_attempts_total{result="success"}'),
    };

    expect((await app.api.post('/webhooks', { url: receiver.url('/metrics') })).status).toBe(201);
    const key = { 'Idempotency-Key': `metrics-${Date.now()}` };
    const campaign = await app.api.post('/campaigns', { name: 'Metrics', referrerReward: { amount: 5, fulfillmentType: 'MANUAL' } }, key);
    expect(campaign.status).toBe(201);
    const replay = await app.api.post('/campaigns', { name: 'Metrics', referrerReward: { amount: 5, fulfillmentType: 'MANUAL' } }, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const campaignId = campaign.body.campaign.id as string;
    expect((await app.api.get('/campaigns/cmp_missing')).status).toBe(404);
    const referral = await app.api.post('/referrals', { campaignId, referrerId: 'metrics-referrer' });
    const code = referral.body.referralCode as string;
    for (let i = 0; i < 3; i += 1) expect((await app.api.post('/clicks', { referralCode: code, refereeId: `visitor-${i}` })).status).toBe(200);
    expect((await app.api.post('/conversions', { referralCode: code, refereeId: 'metrics-buyer' })).status).toBe(201);
    await receiver.waitFor((r) => r.path === '/metrics', 1);

    const grew = (expr: string, from: number, by: number) =>
      eventually(() => sum(expr), (v) => v >= from + by, 15_000).then((v) => expect(v).toBeGreaterThanOrEqual(from + by));
    await grew('ris_http_request_duration_seconds_count{route="/api/v1/campaigns",method="POST",status_class="2xx"}', before.campaigns, 1);
    await grew('ris_http_request_duration_seconds_count{route="/api/v1/campaigns/:campaignId",status_class="4xx"}', before.notFound, 1);
    await grew('ris_idempotent_replays_total', before.replays, 1);
    await grew('ris_conversions_total', before.conversions, 1);
    await grew('ris_clicks_total', before.clicks, 3);
    await grew('ris_rpc_server_duration_seconds_count{app="referral-service",method="CreateCampaign",code="ok"}', before.createCampaign, 1);
    await grew('ris_rpc_client_duration_seconds_count{app="gateway",method="GetCampaign",code="not_found"}', before.notFoundRpc, 1);
    await grew('ris_webhook_attempts_total{result="success"}', before.webhookOk, 1);

    // Histograms answer quantiles, per route (over the whole run: these series may be a scrape old).
    const p99 = await prometheus.value('histogram_quantile(0.99, sum by (le) (ris_http_request_duration_seconds_bucket{route="/api/v1/clicks"}))');
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThan(10);
    // Events published, consumed by the webhook fan-out, with the consumer's lag known; the stores timed; dependencies up.
    expect(await sum('ris_events_published_total{type="referral.created"}')).toBeGreaterThanOrEqual(1);
    expect(await sum('ris_events_consumed_total{consumer="webhook-fanout"}')).toBeGreaterThanOrEqual(1);
    expect(await prometheus.value('max(ris_consumer_lag_messages{consumer="webhook-fanout"})')).not.toBeNull();
    expect(await prometheus.value('count(ris_outbox_pending_documents{app="referral-service"})')).toBeGreaterThan(0);
    expect(await sum('ris_mongodb_command_duration_seconds_count{app="referral-service",command="insert"}')).toBeGreaterThanOrEqual(1);
    expect(await sum('ris_redis_command_duration_seconds_count{app="gateway"}')).toBeGreaterThanOrEqual(1);
    expect(await prometheus.value('min(ris_dependency_up)')).toBe(1);
    expect(await prometheus.value('count(ris_dependency_up)')).toBeGreaterThanOrEqual(15);
    // The default process and Node metrics are there too.
    expect(await prometheus.value('count(process_cpu_seconds_total{job="ris"})')).toBe(7);
    // No id or code ever becomes a label value.
    const routes = await prometheus.query('group by (route) (ris_http_request_duration_seconds_count)');
    const values = (routes.data?.result ?? []).map((r) => r.metric.route);
    expect(values.filter((route) => route.includes(code) || route.includes(campaignId))).toEqual([]);
  }, 90_000);

  it('evaluates every expression of the alert rules and the dashboard, on metrics the apps export', async () => {
    const expressions = shippedExpressions();
    expect(expressions.length).toBeGreaterThan(40);
    const exported = await prometheus.metricNames();
    const problems: string[] = [];
    for (const { where, expr } of expressions) {
      const result = await prometheus.query(expr);
      if (result.status !== 'success') problems.push(`${where}: ${result.errorType}: ${result.error}\n  ${expr}`);
      for (const name of metricNamesIn(expr)) {
        if (name !== 'up' && !exported.has(family(name)) && !exported.has(name)) problems.push(`${where}: no app exports ${name}\n  ${expr}`);
      }
    }
    expect(problems).toEqual([]);
  }, 60_000);

  it('loads the alert rules, none of them firing on a healthy stack', async () => {
    const res = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as { data: { groups: Array<{ rules: Array<{ name: string; health: string; state: string; lastError?: string }> }> } };
    const rules = res.data.groups.flatMap((g) => g.rules);
    expect(rules.map((r) => r.name).sort()).toEqual(
      ['RisAppDown', 'RisConsumerLagGrowing', 'RisDependencyDown', 'RisHigh5xxRate', 'RisHighP99Latency', 'RisOutboxStuck', 'RisWebhookEndpointDisabled'],
    );
    const evaluated = await eventually(
      async () => ((await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as typeof res).data.groups.flatMap((g) => g.rules),
      (list) => list.every((r) => r.health === 'ok'),
      10_000,
    );
    expect(evaluated.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`)).toEqual([]);
    expect(evaluated.filter((r) => r.state === 'firing').map((r) => r.name)).toEqual([]);
  });
});
