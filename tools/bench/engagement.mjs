// Engagement benchmark: writes tools/bench/results/engagement.md.
//
//   node tools/bench/engagement.mjs [--duration <seconds per run>] [--users <expiry users>] [--lots <lots per user>]
//
// Starts the gateway and the incentive service as processes (databases,
// stream and Redis prefix of their own, the rate limit out of the way, the
// services' clock in a file the script moves) and measures:
//
//   1. POST /incentives/events, one event per request, 100 users, 8 connections,
//      in an app with nothing but its action (today's single event) and in an
//      app with 3 streak definitions, coin expiry and an active boost,
//      alternated (plain, engaged, plain, engaged) so drift hits both.
//   2. The dues pass over 1,000,000 lots (10,000 users x 100 lots, seeded
//      straight into the incentive database, all lapsed once the clock moves),
//      and over users with 1 lot each: time per user (flat: the same whatever
//      a user holds) and the service's peak memory.
import autocannon from 'autocannon';
import mongoose from 'mongoose';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bundleTs } from '../bundle-ts.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const DURATION = arg('--duration', 10);
const EXPIRY_USERS = arg('--users', 10_000);
const LOTS = arg('--lots', 100);
const SMALL_USERS = 2_000;
const EVENT_USERS = 100;
const DAY_MS = 86_400_000;
const log = (...args) => console.error('[bench]', ...args);

function cannon({ url, path, headers, setupRequest }) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: 8, duration: DURATION, headers: { ...headers, 'content-type': 'application/json' }, requests: [{ method: 'POST', path, setupRequest }], timeout: 60 },
      (err, result) => (err ? reject(err) : resolve({ perSec: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts })),
    );
  });
}

/** kB of the process's peak resident memory (VmHWM) and current (VmRSS). */
const memoryOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { peakMb: kb('VmHWM') / 1024, rssMb: kb('VmRSS') / 1024 };
};

async function main() {
  const run = `bench${Date.now().toString(36)}`;
  log(`run ${run}: building the apps`);
  execFileSync(process.execPath, [join(root, 'tools', 'build-apps.mjs')], { stdio: 'inherit' });
  const { ProcessStack, readInfraEnv, removeRunData } = require(join(root, 'dist', 'tools', 'stack.js'));
  await bundleTs(join(root, 'libs', 'testing', 'src', 'own-stack.ts'), join(root, 'dist', 'tools', 'bench', 'own-stack.cjs'));
  await bundleTs(join(root, 'apps', 'incentive-service', 'src', 'events', 'derived-ids.ts'), join(root, 'dist', 'tools', 'bench', 'derived-ids.cjs'));
  const { ownStackOptions } = require(join(root, 'dist', 'tools', 'bench', 'own-stack.cjs'));
  const { balanceId } = require(join(root, 'dist', 'tools', 'bench', 'derived-ids.cjs'));
  const infra = readInfraEnv(root);
  const clockDir = mkdtempSync(join(tmpdir(), 'ris-bench-clock-'));
  const clockFile = join(clockDir, 'offset-ms');
  writeFileSync(clockFile, '0');
  const stack = new ProcessStack(
    ownStackOptions(run, 'bench-logs', {
      root,
      infra,
      logLevel: 'warn',
      apps: ['incentive-service', 'gateway'],
      env: { RIS_TEST_CLOCK_FILE: clockFile },
      appEnv: { gateway: { RATE_LIMIT_PER_SECOND: '10000000', RATE_LIMIT_BURST: '10000000' }, 'incentive-service': { DUES_PASS_INTERVAL_MS: '1000' } },
    }),
  );
  const load = { start: loadavg()[0] };
  const results = {};
  let db;
  try {
    await stack.start();
    const call = async (key, method, path, body) => {
      const res = await fetch(`${stack.gatewayUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.json();
    };
    const newApp = async (name) => call(stack.options.adminToken, 'POST', '/admin/v1/apps', { name });
    const [plainApp, engagedApp] = [await newApp('plain'), await newApp('engaged')];
    const [plain, engaged] = [plainApp.apiKey, engagedApp.apiKey];
    for (const key of [plain, engaged]) await call(key, 'POST', '/api/v1/incentives/actions', { key: 'bench', name: 'Bench', type: 'STANDARD', coins: 3, xp: 2 });
    for (const [k, period, actionKeys] of [['daily', 'DAILY', []], ['weekly', 'WEEKLY', []], ['bench_daily', 'DAILY', ['bench']]]) {
      await call(engaged, 'POST', '/api/v1/incentives/streaks/definitions', { key: k, name: k, period, actionKeys, freezesPerMonth: 2, rewards: [{ length: 7, coins: 10 }] });
    }
    await call(engaged, 'PUT', '/api/v1/incentives/settings', { coinExpiryDays: 30 });
    await call(engaged, 'POST', '/api/v1/incentives/boosts', { name: 'Double', multiplier: 2, startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + DAY_MS).toISOString() });

    // 1. single events, alternated
    let counter = 0;
    const oneEvent = (req) => ({ ...req, body: JSON.stringify({ userId: `u${counter++ % EVENT_USERS}`, actionKey: 'bench' }) });
    const events = (key) => cannon({ url: stack.gatewayUrl, path: '/api/v1/incentives/events', headers: { authorization: `Bearer ${key}` }, setupRequest: oneEvent });
    log('warm-up');
    await events(plain);
    await events(engaged);
    const runs = { plain: [], engaged: [] };
    for (let round = 0; round < 2; round += 1) {
      log(`scenario 1, round ${round + 1}: plain`);
      runs.plain.push(await events(plain));
      log(`scenario 1, round ${round + 1}: 3 streaks, expiry and a boost`);
      runs.engaged.push(await events(engaged));
    }
    const mean = (list, f) => list.reduce((s, r) => s + r[f], 0) / list.length;
    results.events = {
      plain: { perSec: mean(runs.plain, 'perSec'), p50: mean(runs.plain, 'p50'), p99: mean(runs.plain, 'p99'), failed: runs.plain.reduce((s, r) => s + r.failed, 0) },
      engaged: { perSec: mean(runs.engaged, 'perSec'), p50: mean(runs.engaged, 'p50'), p99: mean(runs.engaged, 'p99'), failed: runs.engaged.reduce((s, r) => s + r.failed, 0) },
      load: loadavg()[0],
    };

    // 2. the dues pass over seeded lots: first users with 1 lot each, then 1,000,000 lots
    db = await mongoose.createConnection(infra.MONGODB_URL, { dbName: `${stack.options.dbPrefix}incentive` }).asPromise();
    const balances = db.collection('balances');
    const ledger = db.collection('ledger');
    const pid = stack.pid('incentive-service');
    let offset = 0;
    const seed = async (appId, prefix, users, lots) => {
      const now = Date.now() + offset;
      for (let from = 0; from < users; from += 500) {
        const docs = [];
        for (let i = from; i < Math.min(users, from + 500); i += 1) {
          const userId = `${prefix}${i}`;
          // Lots of days 1..lots ahead: all lapsed once the clock moves past them.
          const coinLots = Array.from({ length: lots }, (_, d) => ({ expiresAt: new Date(Math.floor(now / DAY_MS + d + 1) * DAY_MS), amount: 5 }));
          docs.push({ _id: balanceId(appId, userId), appId, userId, seq: 0, coins: 5 * lots, xp: 0, tokens: 0, coinLots, nextDueAt: coinLots[0].expiresAt, createdAt: new Date(now), updatedAt: new Date(now) });
        }
        await balances.insertMany(docs, { ordered: false });
      }
    };
    const pass = async (name, appId, prefix, users, lots) => {
      log(`scenario 2: seeding ${users} users x ${lots} lots`);
      const seeded = Date.now();
      await seed(appId, prefix, users, lots);
      const seedSeconds = (Date.now() - seeded) / 1000;
      const before = memoryOf(pid);
      offset += (lots + 2) * DAY_MS;
      writeFileSync(clockFile, String(offset));
      const started = Date.now();
      // When the pass got through the first and the last fifth of the users: flat is the same ms per user at both ends.
      const marks = [];
      for (;;) {
        const done = await ledger.countDocuments({ appId, reason: 'EXPIRY', userId: { $regex: `^${prefix}` } });
        marks.push({ done, at: Date.now() });
        if (done >= users) break;
        await sleep(500); // the poll's interval: it waits on the count above, not on the time
      }
      const seconds = (Date.now() - started) / 1000;
      const timeTo = (count) => marks.find((m) => m.done >= count)?.at ?? Date.now();
      const fifth = Math.floor(users / 5);
      const firstFifthMs = (timeTo(fifth) - started) / fifth;
      const lastFifthMs = (timeTo(users) - timeTo(users - fifth)) / fifth;
      const wrong = await balances.countDocuments({ appId, userId: { $regex: `^${prefix}` }, coins: { $ne: 0 } });
      results[name] = { users, lots, seconds, msPerUser: (seconds * 1000) / users, firstFifthMs, lastFifthMs, seedSeconds, memory: { before, after: memoryOf(pid) }, wrong, load: loadavg()[0] };
      log(`${name}: ${users} users in ${seconds.toFixed(1)} s (${((seconds * 1000) / users).toFixed(1)} ms per user), ${wrong} balances not emptied`);
    };
    await pass('small', plainApp.app.id, 'one-', SMALL_USERS, 1);
    // Another app: each pass counts its own app's EXPIRY entries.
    await pass('million', engagedApp.app.id, 'many-', EXPIRY_USERS, LOTS);
    load.end = loadavg()[0];
    writeReport(results, { run, load });
  } finally {
    await db?.close();
    await stack.stop();
    await removeRunData(stack.options);
    rmSync(clockDir, { recursive: true, force: true });
  }
}

function writeReport(r, { run, load }) {
  const n = (x, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const ratio = r.events.engaged.perSec / r.events.plain.perSec;
  const flat = r.million.msPerUser / r.small.msPerUser;
  const row = (name, s) => `| ${name} | ${n(s.perSec)} | ${n(s.p50)} / ${n(s.p99)} | ${s.failed} |`;
  const passRow = (name, s) =>
    `| ${name} | ${n(s.users)} × ${n(s.lots)} = ${n(s.users * s.lots)} | ${n(s.seconds, 1)} | ${n(s.msPerUser, 2)} | ${n(s.firstFifthMs, 2)} / ${n(s.lastFifthMs, 2)} | ${n(s.memory.before.rssMb)} → ${n(s.memory.after.rssMb)} (peak ${n(s.memory.after.peakMb)}) | ${s.wrong} | ${n(s.load, 1)} |`;
  const md = `# Engagement benchmark

Generated by \`node tools/bench/engagement.mjs\` (run \`${run}\`, ${new Date().toISOString()}).

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${n(totalmem() / 2 ** 30, 1)} GiB, Node ${process.version}; MongoDB wire protocol served by
FerretDB v1. 1-minute load average ${n(load.start, 2)} at the start, ${n(load.end, 2)} at the end.

## Single events with 3 streaks, coin expiry and a boost, against today's single event

\`POST /incentives/events\`, one event per request over 100 users, 8 connections, ${DURATION} s per run, two runs each,
alternated (plain, engaged, plain, engaged), means shown. "Engaged" is an app with 3 streak definitions (two daily,
one weekly, rewards at 7), \`coinExpiryDays: 30\` (every credit stamped with its lot) and an active ×2 boost.

| app | events/s | p50 / p99 ms | failed |
|---|---|---|---|
${row('plain (action only)', r.events.plain)}
${row('3 streaks + expiry + boost', r.events.engaged)}

Engaged / plain: **${n(ratio * 100)} %** (target: at least 80 %: ${ratio >= 0.8 ? 'met' : '**not met**'}).

## The dues pass over 1,000,000 lots

Balances seeded straight into the incentive database, every lot lapsed once the clock file moves past them; the
pass (every second) writes one EXPIRY entry per user. Time from the clock's move to the last entry; memory of the
incentive service from /proc (VmRSS before → after, VmHWM peak).

| seeded | users × lots | seconds | ms per user | ms per user, first / last fifth | service memory MB | balances not emptied | load |
|---|---|---|---|---|---|---|---|
${passRow('1 lot each', r.small)}
${passRow('1,000,000 lots', r.million)}

Across the pass over 1,000,000 lots, the last fifth of the users cost **${n(r.million.lastFifthMs / r.million.firstFifthMs, 2)}×**
the first fifth (flat is 1×: a user's lots are one document, read and written once, whatever the others hold). A user
of ${n(r.million.lots)} lots costs ${n(flat, 2)}× one of 1 lot: the same reads and writes, of a larger document.
`;
  mkdirSync(join(root, 'tools', 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'tools', 'bench', 'results', 'engagement.md'), md);
  process.stdout.write(md);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
