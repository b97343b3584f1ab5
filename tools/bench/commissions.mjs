// Commission benchmark (issue 29): `node tools/bench/commissions.mjs` (after
// `bash tools/infra/up.sh`). Builds the apps and starts the referral path
// (gateway, referral, fraud and reward services) on free ports with its own
// databases (bench-stack.mjs, as referral.mjs), then measures with
// autocannon, in one run:
//   - POST /conversions on a campaign paying the referrer 10 % of the sale,
//     at most 50 (recurringMonths 12), at 8 connections and at one; and on a
//     campaign paying a fixed 10, the shape of referral.mjs's conversion
//     scenario on its campaign of 500 referrals (results/conversions.md),
//     for "the conversion path is no slower than before";
//   - POST /conversions/{id}/purchases: converted referees paying again,
//     distinct externalIds, spread round-robin over conversions made before;
//   - POST /conversions/{id}/reversals {reason: REFUND, amount}: small
//     partial refunds (1 to 5) spread round-robin over conversions of large
//     sales (1,000: none runs out), each reducing the referrer's reward;
// each against the bare baselines of the same run: one insert
// (insert-baseline-server.mjs), and a bare handler doing the operation's
// essential store work in one process (insert-baseline-server.mjs for a
// conversion, commission-baseline-server.mjs for a purchase and a
// reversal), with the CPU each process spent per answer and the load
// average before and after. Writes tools/bench/results/commissions.md.
// SCENARIO_SECONDS (default 12, at most 15) shortens or lengthens each
// scenario; BENCH_METRICS=1 adds the MongoDB commands per answer by app.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { commandLines, counterSection, cpuTable, cpuTotal, log, loadNow, machineLines, openReferralBench, pct, random, ratioTable, root, writeResults } from './bench-stack.mjs';

const SCENARIO_SECONDS = Math.min(15, Number(process.env.SCENARIO_SECONDS ?? 12));
const WARMUP_SECONDS = 2;
// The one-insert baseline as referral.mjs runs it; the write paths at 8 (more would measure the queue in front of two cores).
const INSERT_CONNECTIONS = 32;
const CONNECTIONS = 8;
const REFERRALS = 500;
const PURCHASE_CONVERSIONS = 60;
const REVERSAL_CONVERSIONS = 160;
const REVERSAL_SALE = 1_000;
const PERCENT_RULE = { percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' };
const FIXED_RULE = { amount: 10, fulfillmentType: 'DISCOUNT_CODE' };
const started = Date.now();

const bench = await openReferralBench({ prefix: 'cb', connections: INSERT_CONNECTIONS, warmupSeconds: WARMUP_SECONDS, scenarioSeconds: SCENARIO_SECONDS });
const { run, telemetry, database, stack, call, costedScenario, quiet } = bench;

/** A sale of 20 to 599 (its 10 % share is 2 to 50: some capped). */
const saleAmount = () => 20 + random(580);

/** `count` conversions of new referees through `codes`, 8 at a time, each of `amount`; their ids and how many were flagged. */
async function premake(apiKey, codes, count, amount) {
  const ids = [];
  let flagged = 0;
  for (let i = 0; i < count; i += CONNECTIONS) {
    const batch = Array.from({ length: Math.min(CONNECTIONS, count - i) }, () => call('POST', '/api/v1/conversions', apiKey, bench.conversionBody(codes[random(codes.length)], amount)));
    for (const res of await Promise.all(batch)) {
      ids.push(res.conversionId);
      if (res.conversionStatus === 'FLAGGED') flagged += 1;
    }
  }
  return { ids, flagged };
}

/** Round-robin over `items`: requests in flight together never share one (there are more items than connections). */
function roundRobin(items) {
  let next = 0;
  return () => items[(next += 1) % items.length];
}

/** A costed POST to the gateway, its path and body made per request by `make()` ({path, body}). */
const gatewayPosts = (name, apiKey, connections, make) =>
  costedScenario(name, {
    url: stack.gatewayUrl,
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    connections,
    requests: [
      {
        setupRequest: (req) => {
          const { path, body } = make();
          return { ...req, path, body: JSON.stringify(body) };
        },
      },
    ],
  });

let externalIds = 0;
const purchase = (nextConversion) => () => ({ path: `/api/v1/conversions/${nextConversion()}/purchases`, body: { amount: saleAmount(), externalId: `inv-${(externalIds += 1)}` } });
const refund = () => 1 + random(5);
const reversal = (nextConversion) => () => ({ path: `/api/v1/conversions/${nextConversion()}/reversals`, body: { reason: 'REFUND', amount: refund() } });

/** The bare purchase and reversal baselines (commission-baseline-server.mjs), at CONNECTIONS, on sales of their own. */
async function commissionBaselines() {
  const sales = (n) => Array.from({ length: n }, (_, i) => `sale-${i}`);
  const server = bench.startBaseline('commission-baseline-server.mjs', [`${run}_baseline`, String(REVERSAL_CONVERSIONS), String(REVERSAL_SALE)]);
  return bench.withBaseline(server, async (baseline) => {
    const post = (name, path, make) =>
      costedScenario(
        name,
        {
          url: `${baseline.url}${path}`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          connections: CONNECTIONS,
          requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(make()) }) }],
        },
        { baseline: baseline.child.pid },
      );
    const nextPurchaseSale = roundRobin(sales(PURCHASE_CONVERSIONS));
    const nextReversalSale = roundRobin(sales(REVERSAL_CONVERSIONS));
    const purchases = await post("Baseline: bare Express + a purchase's essential work", '/baseline/purchase', () => ({
      saleId: nextPurchaseSale(),
      amount: saleAmount(),
      externalId: `inv-${(externalIds += 1)}`,
    }));
    const reversals = await post("Baseline: bare Express + a reversal's essential work", '/baseline/reversal', () => ({ saleId: nextReversalSale(), reason: 'REFUND', amount: refund() }));
    return { purchases, reversals };
  });
}

/** The rows of results/conversions.md on its campaign of 500 referrals, with its run's date (the comparison "as before"). */
function committedConversions() {
  try {
    const text = readFileSync(join(root, 'tools', 'bench', 'results', 'conversions.md'), 'utf8');
    // A scenario's row in the results table, and its row in the CPU table after it (its last cell the total).
    const rowsOf = (name) => text.split('\n').filter((l) => l.startsWith(`| ${name} |`)).map((l) => l.split('|').map((c) => c.trim()));
    const [eight, eightCpu] = rowsOf(`POST /conversions (campaign of ${REFERRALS} referrals)`);
    const [one] = rowsOf(`POST /conversions (campaign of ${REFERRALS} referrals), one connection`);
    if (!eight || !one) return null;
    return {
      run: /^Run (\S+)/m.exec(text)?.[1] ?? 'unknown',
      load: /load average at the end ([\d.]+)/.exec(text)?.[1] ?? 'unknown',
      rps: Number(eight[3]),
      p99: Number(eight[5]),
      vsInsert: eight[8],
      vsEssential: eight[9],
      p50One: Number(one[4]),
      cpu: eightCpu ? Number(eightCpu[eightCpu.length - 2]) : null,
    };
  } catch {
    return null;
  }
}

async function main() {
  await bench.start();
  const { app, apiKey } = await call('POST', '/admin/v1/apps', stack.options.adminToken, { name: 'commission bench' });
  const { campaign: percent } = await call('POST', '/api/v1/campaigns', apiKey, { name: 'Percent', referrerReward: PERCENT_RULE, recurringMonths: 12 });
  const { campaign: fixed } = await call('POST', '/api/v1/campaigns', apiKey, { name: 'Fixed', referrerReward: FIXED_RULE });
  const percentCodes = await bench.makeReferrals(apiKey, percent.id, REFERRALS, 'pct');
  const fixedCodes = await bench.makeReferrals(apiKey, fixed.id, REFERRALS, 'fix');
  const premadeAt = Date.now();
  const forPurchases = await premake(apiKey, percentCodes, PURCHASE_CONVERSIONS, 100);
  const forReversals = await premake(apiKey, percentCodes, REVERSAL_CONVERSIONS, REVERSAL_SALE);
  log(`made ${PURCHASE_CONVERSIONS + REVERSAL_CONVERSIONS} conversions to buy again and refund in ${((Date.now() - premadeAt) / 1000).toFixed(1)} s (${forPurchases.flagged + forReversals.flagged} flagged)`);
  await quiet();
  const loadBefore = loadNow();
  log(`load average before the scenarios: ${loadBefore}`);

  const percentCode = () => percentCodes[random(percentCodes.length)];
  const fixedCode = () => fixedCodes[random(fixedCodes.length)];
  const insertBaseline = await bench.insertScenario(percentCode);
  const conversionBaseline = await bench.essentialConversionScenario(app.id, percentCode, CONNECTIONS);
  const { purchases: purchaseBaseline, reversals: reversalBaseline } = await commissionBaselines();

  const rows = [];
  const measure = async (promise) => {
    rows.push(await promise);
    await quiet();
    return rows[rows.length - 1];
  };
  // Percentage, fixed, fixed, percentage: a drift of the machine's load over the four weighs on both campaigns alike.
  const percent8 = await measure(bench.conversions('POST /conversions (percentage campaign)', apiKey, percentCode, CONNECTIONS, saleAmount));
  const fixed8 = await measure(bench.conversions('POST /conversions (fixed-amount campaign)', apiKey, fixedCode, CONNECTIONS));
  const fixed1 = await measure(bench.conversions('POST /conversions (fixed-amount campaign), one connection', apiKey, fixedCode, 1));
  const percent1 = await measure(bench.conversions('POST /conversions (percentage campaign), one connection', apiKey, percentCode, 1, saleAmount));
  const nextBuyer = roundRobin(forPurchases.ids);
  const purchases8 = await measure(gatewayPosts(`POST /conversions/{id}/purchases (over ${PURCHASE_CONVERSIONS} conversions)`, apiKey, CONNECTIONS, purchase(nextBuyer)));
  const purchases1 = await measure(gatewayPosts(`POST /conversions/{id}/purchases, one connection`, apiKey, 1, purchase(nextBuyer)));
  const nextRefunded = roundRobin(forReversals.ids);
  const reversals8 = await measure(gatewayPosts(`POST /conversions/{id}/reversals (partial, over ${REVERSAL_CONVERSIONS} conversions)`, apiKey, CONNECTIONS, reversal(nextRefunded)));
  const reversals1 = await measure(gatewayPosts(`POST /conversions/{id}/reversals, one connection`, apiKey, 1, reversal(nextRefunded)));

  const [percentStats, fixedStats] = await Promise.all([call('GET', `/api/v1/stats?campaignId=${percent.id}`, apiKey), call('GET', `/api/v1/stats?campaignId=${fixed.id}`, apiKey)]);
  const counted = (...rs) => rs.reduce((sum, r) => sum + r.ok, 0);
  const slack = (...rs) => rs.reduce((sum, r) => sum + 2 * r.connections, 0);
  const premade = PURCHASE_CONVERSIONS + REVERSAL_CONVERSIONS;
  const counterCheck = {
    'totalConversions (percentage campaign, with the conversions made before)': [percentStats.totalConversions, premade + counted(percent8, percent1), premade + counted(percent8, percent1) + slack(percent8, percent1)],
    'totalConversions (fixed-amount campaign)': [fixedStats.totalConversions, counted(fixed8, fixed1), counted(fixed8, fixed1) + slack(fixed8, fixed1)],
    'totalReversals (percentage campaign)': [percentStats.totalReversals, counted(reversals8, reversals1), counted(reversals8, reversals1) + slack(reversals8, reversals1)],
  };
  writeReport({
    baselines: { insert: insertBaseline, conversion: conversionBaseline, purchase: purchaseBaseline, reversal: reversalBaseline },
    measured: { percent8, percent1, fixed8, fixed1, purchases8, purchases1, reversals8, reversals1 },
    rows,
    loadBefore,
    flagged: forPurchases.flagged + forReversals.flagged,
    counterCheck,
  });
}

function writeReport({ baselines, measured, rows, loadBefore, flagged, counterCheck }) {
  const { insert, conversion, purchase: purchaseBase, reversal: reversalBase } = baselines;
  const { percent8, percent1, fixed8, fixed1, purchases8, purchases1, reversals8, reversals1 } = measured;
  const essentialOf = (r) => {
    if (r === insert) return null;
    if (r.name.includes('/purchases') || r === purchaseBase) return purchaseBase;
    if (r.name.includes('/reversals') || r === reversalBase) return reversalBase;
    return conversion;
  };
  const before = committedConversions();
  const ms = (r) => `${cpuTotal(r).toFixed(1)} ms`;
  // The throughput two saturated cores would give each, from CPU alone: a ratio that holds when other work takes a share of the cores.
  const cpuShare = (base, r) => `by CPU alone ${((cpuTotal(base) / cpuTotal(r)) * 100).toFixed(1)}% of the bare handler's rate`;
  const lines = [
    '# Commission benchmark: percentage rules, purchases, reversals',
    '',
    `Run ${new Date().toISOString()} by \`node tools/bench/commissions.mjs\`: ${WARMUP_SECONDS} s warm-up then ${SCENARIO_SECONDS} s per scenario (autocannon, in the benchmark's own process); ${((Date.now() - started) / 1000).toFixed(0)} s in all, build included.`,
    '',
    ...machineLines(database, loadBefore),
    ...(Number.parseFloat(loadBefore) > cpus().length
      ? [`A load average above ${cpus().length} before the scenarios: other work shared the cores during the run, so rates and latencies are lower and noisier than on a quiet machine; the ratios to the baselines of the same run and the CPU per answer compare better.`]
      : []),
    `Stack: gateway, referral, fraud and reward services as processes (LOG_LEVEL=warn, rate limit lifted). One app, two campaigns of ${REFERRALS} referrals made through the API: the percentage campaign pays the referrer 10 % of the sale, at most 50 (DISCOUNT_CODE), recurringMonths 12; the fixed-amount one pays 10 (DISCOUNT_CODE), as referral.mjs's conversion campaigns. Each conversion is a new referee through a random code, with an IP among 250: a sale of 20 to 599 on the percentage campaign, of 25 on the fixed one. Before the scenarios, ${PURCHASE_CONVERSIONS} conversions of 100 (to buy again) and ${REVERSAL_CONVERSIONS} of ${REVERSAL_SALE.toLocaleString('en')} (to refund; their rewards capped at 50) were made through the API on the percentage campaign (${flagged} of them flagged by fraud detection, whose rewards are then held PENDING). Purchases go round-robin over the first, each of 20 to 599 with a new externalId; reversals (REFUND, 1 to 5 of the sale, each reducing the referrer's reward) round-robin over the second, so no two in flight share a conversion and none runs out.`,
    '',
    ...ratioTable([insert, conversion, purchaseBase, reversalBase, ...rows], insert, essentialOf),
    '',
    'The essential-work baselines are bare Express handlers with the plain driver on the same database server, one process: a conversion finds the code\'s key, inserts the conversion and its reward and bumps two counters (insert-baseline-server.mjs, as in conversions.md); a purchase reads the sale, inserts the purchase and one reward and bumps a counter; a reversal reads the sale, claims its part with a conditional update of reversedAmount, reduces the reward with a conditional update, inserts the reversal record and bumps a counter (commission-baseline-server.mjs). Each ran with the stack idle.',
    '',
    '## Summary',
    '',
    `- **POST …/purchases**: ${purchases8.rps.toFixed(0)} req/s at ${CONNECTIONS} connections = **${pct(purchases8, insert)}** of one bare insert (${insert.rps.toFixed(0)} req/s) and **${pct(purchases8, purchaseBase)}** of the bare purchase (${purchaseBase.rps.toFixed(0)} req/s); p99 ${purchases8.p99} ms; p50 **${purchases1.p50} ms** on one connection (p99 ${purchases1.p99} ms); ${ms(purchases8)} of CPU per purchase against ${ms(purchaseBase)} bare (${cpuShare(purchaseBase, purchases8)}).`,
    `- **POST …/reversals** (partial): ${reversals8.rps.toFixed(0)} req/s = **${pct(reversals8, insert)}** of one insert and **${pct(reversals8, reversalBase)}** of the bare reversal (${reversalBase.rps.toFixed(0)} req/s); p99 ${reversals8.p99} ms; p50 **${reversals1.p50} ms** on one connection (p99 ${reversals1.p99} ms); ${ms(reversals8)} of CPU per reversal against ${ms(reversalBase)} bare (${cpuShare(reversalBase, reversals8)}).`,
    `- **POST /conversions, percentage vs fixed** (same stack, same run): ${percent8.rps.toFixed(0)} vs ${fixed8.rps.toFixed(0)} req/s at ${CONNECTIONS} connections (${pct(percent8, conversion)} vs ${pct(fixed8, conversion)} of the essential-work baseline, ${pct(percent8, insert)} vs ${pct(fixed8, insert)} of one insert), p99 ${percent8.p99} vs ${fixed8.p99} ms; p50 ${percent1.p50} vs ${fixed1.p50} ms on one connection; ${ms(percent8)} vs ${ms(fixed8)} of CPU per conversion (${ms(percent1)} vs ${ms(fixed1)} on one connection). A percentage rule is computed from the sale where a fixed one reads its amount: it adds no store work.`,
    before
      ? `- **The conversion path against results/conversions.md** (run ${before.run}, load average ${before.load} at its end; the same scenario on its campaign of ${REFERRALS} referrals): then ${before.rps} req/s = ${before.vsInsert} of one insert and ${before.vsEssential} of the essential-work baseline, p99 ${before.p99} ms, p50 ${before.p50One} ms on one connection${before.cpu === null ? '' : `, ${before.cpu.toFixed(1)} ms of CPU per conversion`}; now (fixed amount) ${fixed8.rps.toFixed(0)} req/s = ${pct(fixed8, insert)} and ${pct(fixed8, conversion)}, p99 ${fixed8.p99} ms, p50 ${fixed1.p50} ms, ${ms(fixed8)}. The ratios and the CPU per answer are what compare across runs; the rates and latencies move with what else the machine runs.`
      : '- results/conversions.md has no row on a campaign of 500 referrals to compare with.',
    '',
    '## What limits it',
    '',
    "- A purchase is one gateway request, the referral service and the reward service: the purchase looked up by its derived id (the same externalId is the same payment), the conversion and its records read (the rewards of the conversion must be issued), the purchase inserted, the campaign's rule applied to its amount and the reward asked of the reward service (journal, insert, totals, events), the reward value counted once (markers) on the campaign, the record, the referral and the participant, the review followed and the purchase marked issued. The baseline does four commands.",
    "- A reversal is one gateway request, the referral service and the reward service: the conversion read, the reversal's intent inserted, the sale claimed with a conditional update of reversedAmount (read again first), the reward service journals a reversal per reward, reads the reward and reduces it conditionally, counts its totals once and marks the journal done with its event; back in the referral service the reversal and the reward value taken are counted once (markers), the records read for the CONVERSION_REVERSED events, the reversal marked applied with them. The baseline does five commands.",
    '- As for a conversion (conversions.md), every MongoDB command costs its Node process and FerretDB with PostgreSQL a few tenths of a millisecond of CPU on this machine, and two shared cores run everything: CPU per answer (below) decides the throughput.',
    '',
    '## CPU per answer, by process (ms)',
    '',
    'From /proc over each measured run, divided by its 2xx answers (the PostgreSQL backends are those of the benchmark\'s own database; "baseline" is the bare server\'s own process; "autocannon" is the benchmark process).',
    '',
    ...cpuTable([insert, conversion, purchaseBase, reversalBase, ...rows]),
    '',
    ...commandLines([conversion, purchaseBase, reversalBase, ...rows]),
    ...counterSection(counterCheck),
  ];
  writeResults('commissions', telemetry, lines);
}

await bench.runMain(main);
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
