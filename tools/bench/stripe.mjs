// Stripe-in benchmark (issue 30): `node tools/bench/stripe.mjs` (after
// `bash tools/infra/up.sh`). Builds the apps and starts the referral path
// (gateway, referral, fraud and reward services) on free ports with its own
// databases (bench-stack.mjs), connects an app's Stripe integration to a
// campaign of 500 referrals, then measures with autocannon, in one run:
//   - signed checkout.session.completed events posted to the integration's
//     endpoint as Stripe posts them (a new event, session and customer each,
//     a random referral code of the campaign, a sale of 20 to 599 USD), at 8
//     connections and at one: each becomes a conversion;
//   - the same events delivered again (Stripe's retries): answered from the
//     event's record, nothing changed;
//   - POST /conversions of the same shape on a second campaign: what the
//     conversion costs without Stripe in front of it;
// against the bare baseline of the same run: an Express handler that reads
// the raw body, checks its Stripe-Signature with the stripe package
// (Stripe.webhooks.constructEvent) and inserts the event under its id, in
// one process (stripe-baseline-server.mjs), with the CPU each process spent
// per answer and the load average before and after. The benchmark signs
// each request itself (Stripe.webhooks.generateTestHeaderString): its CPU is
// in the "autocannon" column. Writes tools/bench/results/stripe.md.
// SCENARIO_SECONDS (default 12, at most 15) and BENCH_SCALE (default 1: the
// campaign's 500 referrals; 0.1 for a quick try) shorten it.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { URL } from 'node:url';
import { counterSection, cpuTable, cpuTotal, log, loadNow, machineLines, openReferralBench, random, writeResults } from './bench-stack.mjs';

const require = createRequire(import.meta.url);
const Stripe = require('stripe');

const SCALE = Math.min(1, Number(process.env.BENCH_SCALE ?? 1));
const SCENARIO_SECONDS = Math.min(15, Number(process.env.SCENARIO_SECONDS ?? 12));
const WARMUP_SECONDS = 2;
const CONNECTIONS = 8;
const REFERRALS = Math.max(25, Math.round(500 * SCALE));
/** Events kept to deliver again (each delivered once by the checkout scenarios first). */
const REPLAYS = Math.max(50, Math.round(2_000 * SCALE));
const RULE = { percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' };
const started = Date.now();

const bench = await openReferralBench({ prefix: 'sb', connections: CONNECTIONS, warmupSeconds: WARMUP_SECONDS, scenarioSeconds: SCENARIO_SECONDS });
const { run, telemetry, database, stack, call, costedScenario, quiet } = bench;
const secret = `whsec_${randomBytes(24).toString('base64url')}`;

/** A sale of 20 to 599 in cents (its 10 % share is 2 to 50: some capped). */
const saleCents = () => (20 + random(580)) * 100;

let made = 0;
/** Bodies already delivered once, for the retries scenario (the last REPLAYS of them). */
const delivered = [];

/** A new checkout.session.completed through `nextCode()`, as Stripe sends it: the exact body. */
function checkoutBody(nextCode) {
  made += 1;
  const n = `${run}_${made}`;
  const body = JSON.stringify({
    id: `evt_${n}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null },
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_${n}`,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: nextCode(),
        metadata: {},
        customer: `cus_${n}`,
        customer_details: { email: null },
        amount_total: saleCents(),
        currency: 'usd',
        payment_intent: `pi_${n}`,
        invoice: null,
        subscription: null,
      },
    },
  });
  delivered.push(body);
  if (delivered.length > REPLAYS) delivered.shift();
  return body;
}

/** The request of one delivery of `body`: signed now, with the integration's secret (or the baseline's, the same). */
const signed = (req, path, body) => ({
  ...req,
  path,
  headers: { ...req.headers, 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) },
  body,
});

/** A costed scenario posting `makeBody()` to `url` + `path`, signed, at `connections`. */
const deliveries = (name, url, path, connections, makeBody, extra = {}) =>
  costedScenario(
    name,
    {
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      connections,
      requests: [{ setupRequest: (req) => signed(req, path, makeBody()) }],
    },
    extra,
  );

/** The bare baseline (stripe-baseline-server.mjs) at CONNECTIONS: fresh signed events, verified and inserted. */
function baselineScenario(nextCode) {
  const server = bench.startBaseline('stripe-baseline-server.mjs', [`${run}_baseline`, secret]);
  return bench.withBaseline(server, (baseline) =>
    deliveries('Baseline: bare Express + constructEvent + one insert', baseline.url, '/baseline/stripe', CONNECTIONS, () => checkoutBody(nextCode), { baseline: baseline.child.pid }),
  );
}

const pct = (r, base) => `${((r.rps / base.rps) * 100).toFixed(1)}%`;

async function main() {
  await bench.start();
  const { apiKey } = await call('POST', '/admin/v1/apps', stack.options.adminToken, { name: 'stripe bench' });
  const { campaign } = await call('POST', '/api/v1/campaigns', apiKey, { name: 'Stripe', referrerReward: RULE, recurringMonths: 12 });
  const { campaign: plain } = await call('POST', '/api/v1/campaigns', apiKey, { name: 'Plain', referrerReward: RULE, recurringMonths: 12 });
  const { integration } = await call('PUT', '/api/v1/integrations/stripe', apiKey, { webhookSecret: secret, campaignId: campaign.id });
  const endpoint = new URL(integration.endpointUrl);
  const codes = await bench.makeReferrals(apiKey, campaign.id, REFERRALS, 'stripe');
  const plainCodes = await bench.makeReferrals(apiKey, plain.id, REFERRALS, 'plain');
  const nextCode = () => codes[random(codes.length)];
  await quiet();
  const loadBefore = loadNow();
  log(`load average before the scenarios: ${loadBefore}`);

  const baseline = await baselineScenario(nextCode);
  // The baseline's events are not the stack's: the retries scenario delivers the stack's own.
  delivered.length = 0;
  const rows = [];
  const measure = async (promise) => {
    rows.push(await promise);
    await quiet();
    return rows[rows.length - 1];
  };
  const gateway = `${endpoint.protocol}//${endpoint.host}`;
  const checkouts8 = await measure(deliveries('Stripe checkout → conversion (POST /integrations/stripe/events/{id})', gateway, endpoint.pathname, CONNECTIONS, () => checkoutBody(nextCode)));
  const checkouts1 = await measure(deliveries('Stripe checkout → conversion, one connection', gateway, endpoint.pathname, 1, () => checkoutBody(nextCode)));
  const replayed = [...delivered];
  let next = 0;
  const retries8 = await measure(deliveries(`The same events again (Stripe's retries, over ${replayed.length})`, gateway, endpoint.pathname, CONNECTIONS, () => replayed[(next += 1) % replayed.length]));
  const conversions8 = await measure(bench.conversions('POST /conversions (the same conversion without Stripe)', apiKey, () => plainCodes[random(plainCodes.length)], CONNECTIONS, () => saleCents() / 100));

  const [stats, matched, plainStats] = await Promise.all([
    call('GET', `/api/v1/stats?campaignId=${campaign.id}`, apiKey),
    call('GET', '/api/v1/integrations/stripe/events?status=MATCHED&limit=1', apiKey),
    call('GET', `/api/v1/stats?campaignId=${plain.id}`, apiKey),
  ]);
  const counted = checkouts8.ok + checkouts1.ok;
  const slack = 2 * (checkouts8.connections + checkouts1.connections);
  const counterCheck = {
    'totalConversions (the connected campaign)': [stats.totalConversions, counted, counted + slack],
    'MATCHED Stripe events (the retries add none)': [matched.pagination.totalItems, counted, counted + slack],
    'totalConversions (the campaign of POST /conversions)': [plainStats.totalConversions, conversions8.ok, conversions8.ok + 2 * conversions8.connections],
  };
  writeReport({ baseline, checkouts8, checkouts1, retries8, conversions8, rows, loadBefore, counterCheck });
}

function writeReport({ baseline, checkouts8, checkouts1, retries8, conversions8, rows, loadBefore, counterCheck }) {
  const all = [baseline, ...rows];
  const ms = (r) => `${cpuTotal(r).toFixed(1)} ms`;
  const lines = [
    '# Stripe-in benchmark: signed checkout events to conversions',
    '',
    `Run ${new Date().toISOString()} by \`node tools/bench/stripe.mjs\`${SCALE < 1 ? ` (BENCH_SCALE=${SCALE})` : ''}: ${WARMUP_SECONDS} s warm-up then ${SCENARIO_SECONDS} s per scenario (autocannon, in the benchmark's own process, which also signs each request); ${((Date.now() - started) / 1000).toFixed(0)} s in all, build included.`,
    '',
    ...machineLines(database, loadBefore),
    ...(Number.parseFloat(loadBefore) > cpus().length
      ? [`A load average above ${cpus().length} before the scenarios: other work shared the cores during the run, so rates and latencies are lower and noisier than on a quiet machine; the ratios to the baseline of the same run and the CPU per answer compare better.`]
      : []),
    `Stack: gateway, referral, fraud and reward services as processes (LOG_LEVEL=warn, rate limit lifted). One app with a Stripe integration connected to a campaign of ${REFERRALS} referrals paying the referrer 10 % of the sale, at most 50 (recurringMonths 12), and a second campaign of ${REFERRALS} referrals with the same rule for POST /conversions. Each checkout event is a new event, session and customer through a random code of the connected campaign, a sale of 20 to 599 USD, signed with the integration's secret when sent (the timestamp of the moment); the retries deliver the last ${REPLAYS} checkout events again, each signed anew.`,
    '',
    '| Scenario | connections | req/s | p50 ms | p99 ms | requests | errors / non-2xx | vs the bare baseline |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...all.map((r) => `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.errors} | ${r === baseline ? '100%' : pct(r, baseline)} |`),
    '',
    "The bare baseline is an Express handler with the plain driver on the same database server, one process, the stack idle: the raw body read, its Stripe-Signature checked by the stripe package's constructEvent (the service's own check) and the event inserted under its id (stripe-baseline-server.mjs).",
    '',
    '## Summary',
    '',
    `- **Signed checkout events → conversions**: ${checkouts8.rps.toFixed(0)} events/s at ${CONNECTIONS} connections = **${pct(checkouts8, baseline)}** of the bare baseline (${baseline.rps.toFixed(0)}/s); p99 ${checkouts8.p99} ms; p50 **${checkouts1.p50} ms** on one connection (p99 ${checkouts1.p99} ms); ${ms(checkouts8)} of CPU per event against ${ms(baseline)} bare.`,
    `- **Against POST /conversions** of the same conversion: ${conversions8.rps.toFixed(0)} req/s, ${ms(conversions8)} of CPU per conversion: a Stripe event costs ${(cpuTotal(checkouts8) - cpuTotal(conversions8)).toFixed(1)} ms more (its integration read and secret opened, the signature checked, its record written and settled, the sale's links written: customer and payment intent).`,
    `- **Retries** (the same event again): ${retries8.rps.toFixed(0)} deliveries/s = ${pct(retries8, baseline)} of the baseline, ${ms(retries8)} of CPU each: the integration read, the signature checked and the event's record read, nothing written.`,
    '',
    '## What limits it',
    '',
    "- A checkout event is one gateway request (its raw body kept, parsed for the schema) and a ReceiveStripeEvent call: the integration read by its id and its secret opened (AES-GCM), the signature checked (HMAC-SHA256), the event's record inserted, the code's key read and the conversion recorded exactly as POST /conversions records it (fraud score, the referee's record claimed, the reward asked of the reward service, counters), the sale's links inserted, the record settled and the events waiting for those links looked up. The baseline does the signature check and one insert.",
    '- As for a conversion (conversions.md), every MongoDB command costs its Node process and FerretDB with PostgreSQL a few tenths of a millisecond of CPU on this machine, and two shared cores run everything: CPU per answer (below) decides the throughput.',
    '',
    '## CPU per answer, by process (ms)',
    '',
    'From /proc over each measured run, divided by its 2xx answers (the PostgreSQL backends are those of the benchmark\'s own database; "baseline" is the bare server\'s own process; "autocannon" is the benchmark process, which signs each request).',
    '',
    ...cpuTable(all),
    '',
    ...counterSection(counterCheck),
  ];
  writeResults('stripe', telemetry, lines);
}

await bench.runMain(main);
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
