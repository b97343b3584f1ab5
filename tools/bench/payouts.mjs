// Payout benchmark (issue 30): `node tools/bench/payouts.mjs` (after
// `bash tools/infra/up.sh`). Starts the referral path on free ports with its
// own databases (bench-stack.mjs), then, in one run:
//   - POST /payouts over 10,000 payable CASH rewards of 1,000 referrers
//     (10 each; 100 of them owing a clawback): its time, the reward
//     service's peak memory while it runs, and the same essential store
//     work done bare in one process (read the payable rewards and owed
//     clawbacks, store each payout, claim each reward and clawback by a
//     conditional update per referrer, read back what was won, open each
//     payout), at the same concurrency;
//   - GET /payouts/export of 10,000 and of 100,000 payouts: time, rows/s,
//     and the peak memory of the gateway and the reward service above what
//     they held before, which must not grow with the rows (streamed), beside
//     a bare export (a cursor into csv-stringify) in one process.
// The rewards, clawbacks and payouts are stored straight into the reward
// service's database as the service stores them (making 10,000 rewards
// through conversions would measure conversions, results/commissions.md).
// BENCH_SCALE (default 1) scales the counts down for a quick try.
// Writes tools/bench/results/payouts.md.
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { createRequire } from 'node:module';
import { log, loadNow, machineLines, openReferralBench, writeResults } from './bench-stack.mjs';

const require = createRequire(import.meta.url);
const mongoose = require('mongoose');
const pLimit = require('p-limit');
const { stringify } = require('csv-stringify/sync');

const SCALE = Math.min(1, Number(process.env.BENCH_SCALE ?? 1));
const REFERRERS = Math.max(10, Math.round(1_000 * SCALE));
const REWARDS_EACH = 10;
const OWING = Math.round(REFERRERS / 10);
const EXPORTS = [Math.round(10_000 * SCALE), Math.round(100_000 * SCALE)];
const started = Date.now();

const bench = await openReferralBench({ prefix: 'po', connections: 1, warmupSeconds: 0, scenarioSeconds: 1 });
const { run, telemetry, database, stack, call, quiet } = bench;

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

/** Runs `work` while sampling each app's resident memory every 50 ms: its time, and each app's memory before and at its peak. */
async function measured(apps, work) {
  const pids = Object.fromEntries(apps.map((a) => [a, stack.pid(a)]));
  const before = Object.fromEntries(apps.map((a) => [a, rssMiB(pids[a])]));
  const peak = { ...before };
  const timer = setInterval(() => {
    for (const a of apps) peak[a] = Math.max(peak[a], rssMiB(pids[a]));
  }, 50);
  const t0 = performance.now();
  try {
    const result = await work();
    return { ms: performance.now() - t0, before, peak, result };
  } finally {
    clearInterval(timer);
  }
}

const now = () => new Date();

/** A payable CASH reward as the reward service stores it (reward.model.ts). */
function rewardDoc(appId, userId, i) {
  const at = now();
  return {
    _id: `rwd_${appId}_${userId}_${i}`,
    appId,
    userId,
    campaignId: 'cmp_bench',
    referralId: `ref_${userId}`,
    conversionId: `conv_${userId}_${i}`,
    purchaseId: null,
    side: 'REFERRER',
    level: 1,
    amount: 10 + (i % 7) * 0.25,
    earnedAmount: 10 + (i % 7) * 0.25,
    shareOfSale: false,
    reversedAmount: 0,
    reversalReason: null,
    clawedBack: 0,
    cancelledByReversal: null,
    availableAt: null,
    reviewHold: false,
    currency: 'USD',
    payoutId: null,
    paidAt: null,
    fulfillmentType: 'CASH',
    status: 'APPROVED',
    expiresAt: null,
    claimedAt: null,
    redeemedAt: null,
    approvedAt: at,
    cancelledAt: null,
    cancellationNote: null,
    codeValidityDays: 90,
    createdAt: at,
    updatedAt: at,
  };
}

/** A done clawback as the reward service stores it (reward-reversal.model.ts). */
function clawbackDoc(appId, userId) {
  return {
    _id: `rev_${appId}_${userId}:rwd_paid_${userId}`,
    appId,
    reversalId: `rev_bench_${userId}`,
    rewardId: `rwd_paid_${userId}`,
    userId,
    campaignId: 'cmp_bench',
    conversionId: `conv_paid_${userId}`,
    purchaseId: null,
    side: 'REFERRER',
    level: 1,
    currency: 'USD',
    reason: 'REFUND',
    note: null,
    keep: 0,
    effect: 'CLAWBACK',
    from: 5,
    to: 0,
    clawback: 5,
    createdAt: now(),
    done: true,
    payoutId: null,
    settledAt: null,
  };
}

/** A PENDING or PAID payout as the reward service stores it (payout.model.ts). */
function payoutDoc(appId, i) {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000);
  return {
    _id: `po_bench_${String(i).padStart(7, '0')}`,
    appId,
    userId: i % 97 === 0 ? `=cmd|' /C calc'!A0 ${i}` : `referrer-${i % 1000}`,
    currency: 'USD',
    amount: 95.5,
    rewardsAmount: 100,
    clawbacksAmount: 4.5,
    rewardIds: [`rwd_a_${i}`, `rwd_b_${i}`],
    clawbackIds: [`rev_${i}`],
    status: i % 3 === 0 ? 'PAID' : 'PENDING',
    externalReference: i % 3 === 0 ? `wire-${i}` : null,
    failureReason: null,
    operationKey: null,
    settled: true,
    createdAt: at,
    updatedAt: at,
    paidAt: i % 3 === 0 ? at : null,
    failedAt: null,
  };
}

async function insertInBatches(collection, docs) {
  for (let i = 0; i < docs.length; i += 5_000) await collection.insertMany(docs.slice(i, i + 5_000), { ordered: false });
}

/** POST /payouts's essential store work, bare, at the service's concurrency (8 referrers at once). */
async function barePayouts(db, appId) {
  const rewards = db.collection('rewards');
  const clawbacks = db.collection('reward_reversals');
  const payouts = db.collection('payouts_bare');
  const [payable, owed] = await Promise.all([
    rewards.find({ appId, fulfillmentType: 'CASH', status: 'APPROVED', payoutId: null }).toArray(),
    clawbacks.find({ appId, effect: 'CLAWBACK', payoutId: null, done: true, settledAt: null }).toArray(),
  ]);
  const byUser = new Map();
  for (const r of payable) (byUser.get(r.userId) ?? byUser.set(r.userId, { rewards: [], clawbacks: [] }).get(r.userId)).rewards.push(r);
  for (const c of owed) byUser.get(c.userId)?.clawbacks.push(c);
  const referrers = pLimit(8);
  let made = 0;
  await Promise.all(
    [...byUser.entries()].map(([userId, items]) =>
      referrers(async () => {
        const _id = `po_bare_${userId}`;
        await payouts.insertOne({ _id, appId, userId, status: 'CREATING', rewardIds: items.rewards.map((r) => r._id), clawbackIds: items.clawbacks.map((c) => c._id) });
        // One statement per referrer for its rewards and one for its clawbacks, then the read-back of what was won (as the service does).
        await Promise.all([
          rewards.updateMany({ appId, userId, _id: { $in: items.rewards.map((r) => r._id) }, status: 'APPROVED', payoutId: null }, { $set: { payoutId: _id } }),
          items.clawbacks.length ? clawbacks.updateMany({ appId, userId, _id: { $in: items.clawbacks.map((c) => c._id) }, payoutId: null, settledAt: null }, { $set: { payoutId: _id } }) : null,
        ]);
        await Promise.all([rewards.find({ appId, userId, payoutId: _id }).toArray(), items.clawbacks.length ? clawbacks.find({ appId, userId, payoutId: _id }).toArray() : []]);
        await payouts.updateOne({ appId, _id, status: 'CREATING' }, { $set: { status: 'PENDING' } });
        made += 1;
      }),
    ),
  );
  return made;
}

/** The export's essential work, bare: a cursor over the payouts, newest first, into CSV text, a batch at a time. */
async function bareExport(db, appId) {
  let rows = 0;
  let bytes = 0;
  let batch = [];
  const flush = () => {
    bytes += stringify(batch, { escape_formulas: true, record_delimiter: 'windows' }).length;
    rows += batch.length;
    batch = [];
  };
  for await (const p of db.collection('payouts').find({ appId, status: { $in: ['PENDING', 'PAID', 'FAILED'] } }).sort({ createdAt: -1, _id: -1 }).batchSize(500)) {
    batch.push([p._id, p.userId, p.amount, p.currency, p.rewardsAmount, p.clawbacksAmount, p.rewardIds.length, p.clawbackIds.length, p.status, p.externalReference ?? '', p.createdAt.toISOString(), p.paidAt?.toISOString() ?? '']);
    if (batch.length === 500) flush();
  }
  if (batch.length) flush();
  return { rows, bytes };
}

/** GET /payouts/export read to the end, counting rows and bytes (the body is never held whole). */
async function exportThroughApi(apiKey) {
  const res = await fetch(`${stack.gatewayUrl}/api/v1/payouts/export`, { headers: { authorization: `Bearer ${apiKey}` } });
  if (res.status !== 200) throw new Error(`export: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines += 1;
  }
  return { rows: lines - 1, bytes };
}

const mib = (n) => `${n.toFixed(0)} MiB`;

async function main() {
  await bench.start();
  const db = mongoose.createConnection(database.url, { dbName: `${run}_reward` });
  await db.asPromise();
  try {
    const lines = [];
    const { app, apiKey } = await call('POST', '/admin/v1/apps', stack.options.adminToken, { name: 'payout bench' });
    const bare = await call('POST', '/admin/v1/apps', stack.options.adminToken, { name: 'payout bench (bare)' });

    const users = Array.from({ length: REFERRERS }, (_, i) => `referrer-${i}`);
    const seed = async (appId) => {
      await insertInBatches(db.collection('rewards'), users.flatMap((u) => Array.from({ length: REWARDS_EACH }, (_, i) => rewardDoc(appId, u, i))));
      await insertInBatches(db.collection('reward_reversals'), users.slice(0, OWING).map((u) => clawbackDoc(appId, u)));
    };
    await seed(app.id);
    await seed(bare.app.id);
    const rewardCount = REFERRERS * REWARDS_EACH;
    log(`seeded ${rewardCount} payable rewards of ${REFERRERS} referrers (${OWING} owing a clawback), twice`);
    await quiet();
    const loadBefore = loadNow();

    const api = await measured(['reward-service', 'gateway'], () => call('POST', '/api/v1/payouts', apiKey, {}));
    const made = api.result.payouts.length;
    const paidOut = api.result.payouts.reduce((s, p) => s + p.rewardCount, 0);
    if (made !== REFERRERS || paidOut !== rewardCount) throw new Error(`POST /payouts made ${made} payouts of ${paidOut} rewards; expected ${REFERRERS} of ${rewardCount}`);
    log(`POST /payouts: ${made} payouts of ${paidOut} rewards in ${(api.ms / 1000).toFixed(2)} s`);
    const t0 = performance.now();
    const bareMade = await barePayouts(db, bare.app.id);
    const bareMs = performance.now() - t0;
    log(`bare: ${bareMade} payouts in ${(bareMs / 1000).toFixed(2)} s`);

    lines.push(
      `# Payouts (${new Date().toISOString().slice(0, 10)})`,
      '',
      ...machineLines(database, loadBefore),
      '',
      `## POST /payouts over ${rewardCount.toLocaleString('en')} payable CASH rewards of ${REFERRERS.toLocaleString('en')} referrers`,
      '',
      `${OWING} of the referrers owe a clawback of 5 that their payout deducts. One call; the bare baseline does the same store work in one process at the same concurrency (8 referrers at once): read the payable rewards and owed clawbacks, then per referrer store its payout, claim its rewards and its clawbacks with one conditional update each, read back what it won, open the payout.`,
      '',
      '| | time | payouts | rewards | reward service memory (before → peak) | gateway memory (before → peak) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      `| POST /payouts | ${(api.ms / 1000).toFixed(2)} s | ${made} | ${paidOut} | ${mib(api.before['reward-service'])} → ${mib(api.peak['reward-service'])} | ${mib(api.before.gateway)} → ${mib(api.peak.gateway)} |`,
      `| bare store work | ${(bareMs / 1000).toFixed(2)} s | ${bareMade} | ${rewardCount} | | |`,
      '',
      `POST /payouts took ${(api.ms / bareMs).toFixed(2)}× the bare store work (${((bareMs / api.ms) * 100).toFixed(0)}% of its speed).`,
      '',
    );

    lines.push('## GET /payouts/export', '', 'Payouts stored straight into the database (two thirds PENDING, one third PAID; one in 97 with a formula-looking user id), exported through the gateway and read to the end; memory is each process\'s resident set, sampled every 50 ms.', '');
    lines.push('| payouts | time | rows/s | CSV | gateway memory (before → peak) | reward service memory (before → peak) | bare export (one process) |', '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    let seeded = 0;
    const exportApp = await call('POST', '/admin/v1/apps', stack.options.adminToken, { name: 'payout export bench' });
    for (const count of EXPORTS) {
      await insertInBatches(db.collection('payouts'), Array.from({ length: count - seeded }, (_, k) => payoutDoc(exportApp.app.id, seeded + k)));
      seeded = count;
      await quiet();
      const exported = await measured(['gateway', 'reward-service'], () => exportThroughApi(exportApp.apiKey));
      if (exported.result.rows !== count) throw new Error(`the export of ${count} payouts had ${exported.result.rows} rows`);
      const b0 = performance.now();
      const bareRun = await bareExport(db, exportApp.app.id);
      const bareExportMs = performance.now() - b0;
      if (bareRun.rows !== count) throw new Error(`the bare export of ${count} payouts had ${bareRun.rows} rows`);
      log(`export of ${count}: ${(exported.ms / 1000).toFixed(2)} s, bare ${(bareExportMs / 1000).toFixed(2)} s`);
      lines.push(
        `| ${count.toLocaleString('en')} | ${(exported.ms / 1000).toFixed(2)} s | ${(count / (exported.ms / 1000)).toFixed(0)} | ${(exported.result.bytes / 2 ** 20).toFixed(1)} MiB | ${mib(exported.before.gateway)} → ${mib(exported.peak.gateway)} | ${mib(exported.before['reward-service'])} → ${mib(exported.peak['reward-service'])} | ${(bareExportMs / 1000).toFixed(2)} s (${(count / (bareExportMs / 1000)).toFixed(0)} rows/s; ${((bareExportMs / exported.ms) * 100).toFixed(0)}% of the API's time) |`,
      );
    }
    lines.push('', `Load average at the end: ${loadNow()}. Run in ${((Date.now() - started) / 1000).toFixed(0)} s.`);
    writeResults('payouts', telemetry, lines);
  } finally {
    await db.close();
  }
}

await bench.runMain(main);
log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
