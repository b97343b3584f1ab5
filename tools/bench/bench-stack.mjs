// The referral path's benchmark stack, shared by referral.mjs and
// commissions.mjs. openReferralBench() builds the apps (BENCH_SKIP_BUILD=1:
// as last built), starts the gateway, referral, fraud and reward services as
// processes on free ports with databases, stream and Redis keys of their
// own, and answers what the scenarios need: calls through the gateway,
// autocannon runs (with the CPU each process spent per answer), bare
// baseline servers, the wait for the outbox, and the clean-up. The report
// helpers below write results/<name>.md the same way for every script.
//
// The database server is a FerretDB process of the benchmark's own (the
// binary tools/infra/up.sh built, on the same backend: a database of its
// own in the PostgreSQL cluster, or a fresh SQLite directory), so other
// work on the shared development server does not queue in front of the
// benchmark's queries; the baselines use the same server. Set
// BENCH_MONGODB_URL to measure against a server you run (e.g. MongoDB).
// BENCH_CPU_PROF=<dir>: every app profiles each costed run into it
// (cpu-profile.cjs).
import { Buffer } from 'node:buffer';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { createRequire } from 'node:module';
import { cpus, homedir, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { bundleTs } from '../bundle-ts.mjs';
import { benchTelemetry } from './bench-telemetry.mjs';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const mongoose = require('mongoose');

/** The apps of the referral path, in the order the CPU tables list them. */
export const REFERRAL_PATH = ['gateway', 'referral-service', 'fraud-service', 'reward-service'];
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export function log(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

export const random = (n) => Math.floor(Math.random() * n);

/** The load average now, as the results files print it. */
export const loadNow = () => loadavg().map((l) => l.toFixed(2)).join(' / ');

/** A deterministic, distinct code of 8 characters of the referral alphabet. */
export function code(i) {
  let n = i;
  let out = '';
  for (let k = 0; k < 8; k += 1) {
    out = CODE_ALPHABET[n % CODE_ALPHABET.length] + out;
    n = Math.floor(n / CODE_ALPHABET.length);
  }
  return out;
}

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = tcpConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The FerretDB binary tools/infra/up.sh built from tools/ferretdb (same cache key as up.sh). */
function ferretdbBinary() {
  const src = join(root, 'tools', 'ferretdb');
  const hash = createHash('sha256')
    .update(Buffer.concat(['go.mod', 'go.sum', 'main.go'].map((file) => readFileSync(join(src, file)))))
    .digest('hex')
    .slice(0, 12);
  const binary = join(homedir(), '.cache', 'referral-incentive-service', `ferretdb-v1.24.2-${hash}`);
  if (!existsSync(binary)) throw new Error(`no FerretDB binary at ${binary}: run \`bash tools/infra/up.sh\` first (or set BENCH_MONGODB_URL)`);
  return binary;
}

/**
 * BENCH_MONGODB_URL, or a FerretDB process of our own on the backend
 * tools/infra runs: on PostgreSQL (the default), a database of its own in
 * that cluster; on SQLite, a fresh data directory.
 */
async function benchDatabase(run) {
  if (process.env.BENCH_MONGODB_URL) return { url: process.env.BENCH_MONGODB_URL, pid: null, postgresDatabase: null, label: 'the server at BENCH_MONGODB_URL', stop: async () => {} };
  const binary = ferretdbBinary();
  const port = 20000 + Math.floor(Math.random() * 20000);
  const pgPort = Number(process.env.FERRETDB_PG_PORT ?? 54329);
  const pgBinFile = join(root, '.run', 'postgres.bin');
  const usePostgres = existsSync(pgBinFile) && (await portOpen(pgPort));
  let args;
  let dispose;
  let label;
  if (usePostgres) {
    const pgbin = readFileSync(pgBinFile, 'utf8').trim();
    const pgdb = `bench_${run}`;
    execFileSync(join(pgbin, 'createdb'), ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'ferretdb', pgdb]);
    args = ['-handler', 'postgresql', '-postgresql-url', `postgres://ferretdb@127.0.0.1:${pgPort}/${pgdb}?pool_max_conns=200`];
    dispose = () => execFileSync(join(pgbin, 'dropdb'), ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'ferretdb', '--force', pgdb]);
    label = 'a FerretDB v1.24.2 process of its own on PostgreSQL (a database of its own in the tools/infra cluster)';
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-ferretdb-'));
    args = ['-handler', 'sqlite', '-data', dataDir];
    dispose = () => rmSync(dataDir, { recursive: true, force: true });
    label = 'a FerretDB v1.24.2 process of its own on SQLite (a fresh data directory)';
  }
  const child = spawn(binary, ['-listen', `127.0.0.1:${port}`, '-log-level', 'error', ...args], { stdio: 'ignore' });
  for (let i = 0; i < 100 && !(await portOpen(port)); i += 1) await sleep(100);
  return {
    url: `mongodb://127.0.0.1:${port}`,
    pid: child.pid,
    postgresDatabase: usePostgres ? `bench_${run}` : null,
    label,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      dispose();
    },
  };
}

/** CPU time (user + system) of a process so far, in ms; 0 when it is gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU so far of the PostgreSQL backends serving the benchmark's own database (their command line names it). */
function postgresMs(database) {
  if (!database.postgresDatabase) return 0;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.startsWith('postgres:') && cmdline.includes(` ${database.postgresDatabase} `)) total += cpuMs(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Builds the apps and starts the referral path on a database server of the
 * benchmark's own (above). `prefix` names the run; `connections`,
 * `warmupSeconds` and `scenarioSeconds` are every scenario's defaults.
 * runMain(main) runs the benchmark (main calls start() first) and cleans
 * up after it, whatever happened.
 */
export async function openReferralBench({ prefix, connections, warmupSeconds, scenarioSeconds }) {
  if (process.env.BENCH_SKIP_BUILD !== '1') execFileSync(process.execPath, [join(root, 'tools', 'build-apps.mjs')], { stdio: 'inherit' });
  const { ProcessStack, readInfraEnv, removeRunData } = require(join(root, 'dist', 'tools', 'stack.js'));
  await bundleTs(join(root, 'libs', 'testing', 'src', 'own-stack.ts'), join(root, 'dist', 'tools', 'bench', 'own-stack.cjs'));
  const { ownStackOptions, runName } = require(join(root, 'dist', 'tools', 'bench', 'own-stack.cjs'));

  const telemetry = await benchTelemetry();
  const run = runName(prefix);
  const database = await benchDatabase(run);
  const infra = { ...readInfraEnv(root), MONGODB_URL: database.url };
  const stack = new ProcessStack(
    ownStackOptions(run, 'bench-logs', {
      root,
      infra,
      logLevel: 'warn',
      apps: REFERRAL_PATH,
      // The per-app rate limit (50/s by default) would measure the limiter.
      env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000', ...telemetry.env },
      metrics: telemetry.metrics,
      ...(process.env.BENCH_CPU_PROF
        ? {
            appEnv: Object.fromEntries(
              REFERRAL_PATH.map((a) => [a, { NODE_OPTIONS: `--require ${join(root, 'tools', 'bench', 'cpu-profile.cjs')}`, BENCH_CPU_PROF: process.env.BENCH_CPU_PROF }]),
            ),
          }
        : {}),
    }),
  );

  async function start() {
    log(`starting the stack (${run})`);
    await stack.start();
    telemetry.scrape(stack, REFERRAL_PATH);
  }

  async function call(method, path, token, body) {
    const res = await fetch(`${stack.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  }

  /**
   * A bare baseline server (a script of tools/bench printing its port on
   * stdout) on the benchmark's database server; `args` follow its URL.
   */
  function startBaseline(script, args) {
    const child = spawn(process.execPath, [join(root, 'tools', 'bench', script), infra.MONGODB_URL, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    return new Promise((resolve, reject) => {
      child.once('exit', (status) => reject(new Error(`${script} exited (${status})`)));
      child.stdout.once('data', (chunk) => resolve({ child, url: `http://127.0.0.1:${String(chunk).trim()}` }));
    });
  }

  /** The one-insert baseline (insert-baseline-server.mjs, which also serves the read and the conversion's essential work). */
  const startInsertBaseline = () => startBaseline('insert-baseline-server.mjs', [`${run}_baseline`, `${run}_referral`]);

  /** `fn(baseline)` with a baseline server running; stopped after, whatever happened. */
  async function withBaseline(started, fn) {
    const baseline = await started;
    try {
      return await fn(baseline);
    } finally {
      baseline.child.kill('SIGTERM');
    }
  }

  function cannon(options) {
    return new Promise((resolve, reject) => {
      autocannon({ connections, pipelining: 1, timeout: 30, ...options }, (err, result) => (err ? reject(err) : resolve(result)));
    });
  }

  /** Warm-up, then the measured run; both counted in `ok` (2xx answers, for the counter checks). */
  async function scenario(name, options) {
    log(`${name}: ${warmupSeconds} s warm-up, ${scenarioSeconds} s measured, ${options.connections ?? connections} connections`);
    const { onMeasured, ...cannonOptions } = options;
    const warm = await cannon({ ...cannonOptions, duration: warmupSeconds });
    onMeasured?.();
    const result = await cannon({ ...cannonOptions, duration: scenarioSeconds });
    const summary = {
      name,
      connections: options.connections ?? connections,
      fixedRate: options.overallRate,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests: result.requests.total,
      ok: result['2xx'] + warm['2xx'],
      measuredOk: result['2xx'],
      errors: result.errors + result.timeouts + result.non2xx,
    };
    log(`${name}: ${summary.rps.toFixed(0)} req/s, p50 ${summary.p50} ms, p99 ${summary.p99} ms, ${summary.errors} errors/non-2xx`);
    return summary;
  }

  /** The one-insert baseline's scenario (`nextCode`: the body's referral code), the stack idle meanwhile. */
  const insertScenario = (nextCode) =>
    withBaseline(startInsertBaseline(), (baseline) =>
      costedScenario(
        'Baseline: bare Express + one insert',
        { url: `${baseline.url}/baseline`, method: 'POST', headers: { 'content-type': 'application/json' }, requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ referralCode: nextCode() }) }) }] },
        { baseline: baseline.child.pid },
      ),
    );

  let referees = 0;
  /** A new referee's id (each conversion's, across the run's scenarios and baselines). */
  const nextReferee = () => `referee-${(referees += 1)}`;

  /**
   * The bare handler doing a conversion's essential store work
   * (insert-baseline-server.mjs) through `nextCode()`, a code of app
   * `appId`, at `conns` connections, the stack idle meanwhile.
   */
  const essentialConversionScenario = (appId, nextCode, conns) =>
    withBaseline(startInsertBaseline(), (baseline) =>
      costedScenario(
        "Baseline: bare Express + a conversion's essential work",
        {
          url: `${baseline.url}/baseline/conversion`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          connections: conns,
          requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ appId, referralCode: nextCode(), refereeId: nextReferee(), amount: 25 }) }) }],
        },
        { baseline: baseline.child.pid },
      ),
    );

  /** Waits until the referral service's events are published (the relay caught up: no document carries any), at most 30 s. */
  async function quiet() {
    const db = await mongoose.createConnection(infra.MONGODB_URL, { dbName: `${run}_referral` }).asPromise();
    const waiting = async () => {
      const counts = await Promise.all(['clicks', 'referrals', 'conversions', 'purchases', 'reversals'].map((c) => db.collection(c).countDocuments({ outboxPending: true })));
      return counts.some((count) => count > 0);
    };
    try {
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && (await waiting())) await sleep(500);
    } finally {
      await db.close();
    }
    await sleep(1000);
  }

  /** CPU of every process of the path so far, by name (ms); `extra`: more processes by name ({name: pid}). */
  function cpuNow(extra) {
    const usage = process.cpuUsage();
    return {
      ...Object.fromEntries(REFERRAL_PATH.map((app) => [app, cpuMs(stack.pid(app))])),
      ...Object.fromEntries(Object.entries(extra).map(([name, pid]) => [name, cpuMs(pid)])),
      ferretdb: database.pid ? cpuMs(database.pid) : 0,
      postgres: postgresMs(database),
      autocannon: (usage.user + usage.system) / 1000,
    };
  }

  /** MongoDB commands each app sent so far, by app and command (BENCH_METRICS=1: from their /metrics). */
  async function commandsNow() {
    if (!telemetry.metrics) return {};
    const counts = {};
    await Promise.all(
      REFERRAL_PATH.map(async (app) => {
        const text = await (await fetch(`http://127.0.0.1:${stack.metricsPort(app)}/metrics`)).text();
        for (const m of text.matchAll(/^ris_mongodb_command_duration_seconds_count\{command="(\w+)",outcome="\w+"\} (\d+)/gm)) {
          const key = `${app.replace('-service', '')}.${m[1]}`;
          counts[key] = (counts[key] ?? 0) + Number(m[2]);
        }
      }),
    );
    return counts;
  }

  /**
   * A scenario with the CPU each process spent per 2xx answer of its
   * measured part (warm-up excluded); `extra` names more processes to cost
   * ({name: pid}: a bare baseline server).
   */
  async function costedScenario(name, options, extra = {}) {
    let before;
    let commandsBefore = {};
    const profile = () => process.env.BENCH_CPU_PROF && REFERRAL_PATH.forEach((app) => stack.pid(app) && process.kill(stack.pid(app), 'SIGUSR2'));
    const summary = await scenario(name, {
      ...options,
      onMeasured: () => {
        profile();
        before = cpuNow(extra);
        void commandsNow().then((c) => (commandsBefore = c));
      },
    });
    const after = cpuNow(extra);
    profile();
    const commandsAfter = await commandsNow();
    const per = Math.max(1, summary.measuredOk);
    summary.cpu = Object.fromEntries(Object.keys(after).map((k) => [k, (after[k] - before[k]) / per]));
    log(`${name}: CPU per answer ${Object.entries(summary.cpu).map(([k, v]) => `${k} ${v.toFixed(2)} ms`).join(', ')}`);
    if (telemetry.metrics) {
      summary.commands = Object.fromEntries(Object.keys(commandsAfter).map((k) => [k, (commandsAfter[k] - (commandsBefore[k] ?? 0)) / per]));
      log(`${name}: MongoDB commands per answer ${Object.entries(summary.commands).filter(([, v]) => v > 0.01).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`);
    }
    return summary;
  }

  /** A conversion's body: a new referee through `referralCode`, an IP among 250 (referral.mjs's shape). */
  const conversionBody = (referralCode, amount = 25) => ({ referralCode, refereeId: nextReferee(), amount, ip: `198.51.100.${random(250)}`, userAgent: 'bench' });

  /** POST /conversions of new referees through `nextCode()`, costed; `amount()` each sale (25 by default). */
  const conversions = (name, key, nextCode, conns, amount = () => 25, requestOptions = {}) =>
    costedScenario(name, {
      url: `${stack.gatewayUrl}/api/v1/conversions`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      connections: conns,
      requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(conversionBody(nextCode(), amount())) }), ...requestOptions }],
    });

  /** `count` referrals of a campaign made through the API, 25 at a time; their codes. */
  async function makeReferrals(apiKey, campaignId, count, referrerPrefix) {
    const codes = [];
    for (let i = 0; i < count; i += 25) {
      const batch = Array.from({ length: Math.min(25, count - i) }, (_, k) => call('POST', '/api/v1/referrals', apiKey, { campaignId, referrerId: `${referrerPrefix}-${i + k}` }));
      for (const res of await Promise.all(batch)) codes.push(res.referralCode);
    }
    return codes;
  }

  async function cleanup() {
    await stack.stop().catch(() => undefined);
    await telemetry.close();
    // The apps' databases, stream and Redis keys (seeded code keys among them), and the bare baselines' database.
    await removeRunData(stack.options, ['baseline']).catch((err) => console.error(`[bench] clean-up failed: ${err.message}`));
    if (!process.env.BENCH_MONGODB_URL) await database.stop();
  }

  /** Runs the benchmark's `main`, then cleans up whatever happened (a failure is logged and sets the exit code). */
  async function runMain(main) {
    try {
      await main();
    } catch (err) {
      process.exitCode = 1;
      log(`failed: ${err instanceof Error ? err.stack : String(err)}`);
    } finally {
      await cleanup();
    }
  }

  return {
    run,
    telemetry,
    database,
    infra,
    stack,
    start,
    call,
    startBaseline,
    startInsertBaseline,
    withBaseline,
    scenario,
    costedScenario,
    insertScenario,
    essentialConversionScenario,
    quiet,
    nextReferee,
    conversionBody,
    conversions,
    makeReferrals,
    runMain,
  };
}

/** The results file's lines on the machine (its load average at `loadBefore`, if given, and now) and the database. */
export function machineLines(database, loadBefore) {
  const cpu = cpus();
  const load = loadBefore ? `load average ${loadBefore} before the scenarios, ${loadNow()} at the end` : `load average at the end ${loadNow()}`;
  return [
    `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, Node ${process.version}; ${load} (the machine is shared with other work).`,
    `Database: ${database.label}; NATS 2.9 JetStream and Redis from tools/infra; every process on this one machine.`,
  ];
}

const pct = (r, base) => `${((r.rps / base.rps) * 100).toFixed(1)}%`;

/**
 * The scenarios' table: each with its share of the one-insert baseline's
 * requests/s and of the essential-work baseline `essentialOf(row)` names
 * (none: blank).
 */
export function ratioTable(rows, insertBaseline, essentialOf) {
  const vsEssential = (r) => {
    const essential = essentialOf(r);
    if (r === essential) return '100%';
    return essential && r !== insertBaseline ? pct(r, essential) : '';
  };
  return [
    '| Scenario | connections | req/s | p50 ms | p99 ms | requests | errors / non-2xx | vs one insert | vs essential work |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.name} | ${r.connections} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.errors} | ${r === insertBaseline ? '100%' : pct(r, insertBaseline)} | ${vsEssential(r)} |`),
  ];
}

/** `r`'s requests/s as a share of `base`'s (one decimal, with %). */
export { pct };

/** Per answer, in ms, by process: a table of the scenarios' `cpu` (the columns every row has, in order of appearance). */
export function cpuTable(rows) {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.cpu ?? {})))];
  const cell = (r, k) => (r.cpu?.[k] === undefined ? '' : r.cpu[k].toFixed(2));
  return [
    `| Scenario | ${columns.join(' | ')} | total |`,
    `| --- | ${columns.map(() => '---:').join(' | ')} | ---: |`,
    ...rows.map((r) => `| ${r.name} | ${columns.map((k) => cell(r, k)).join(' | ')} | ${cpuTotal(r).toFixed(2)} |`),
  ];
}

/** The CPU a scenario's answer cost, every process together (ms). */
export const cpuTotal = (r) => Object.values(r.cpu ?? {}).reduce((a, b) => a + b, 0);

/**
 * The section on the counters after the run ({figure: [got, low, high]}):
 * each against the 2xx answers autocannon counted plus what it left in
 * flight.
 */
export function counterSection(counterCheck) {
  return [
    '## Counters after the run',
    '',
    'GET /stats against the 2xx answers autocannon counted (warm-up included) plus the requests it left in flight when each run stopped (at most 2 × connections), which the stack completed:',
    '',
    ...Object.entries(counterCheck).map(
      ([name, [got, low, high]]) => `- ${name}: ${got} (expected ${low === high ? low : `${low} to ${high}`})${got >= low && got <= high ? '' : ' — MISMATCH'}`,
    ),
    '',
  ];
}

/** The section on the MongoDB commands per answer by app (BENCH_METRICS=1; none without). */
export function commandLines(rows) {
  if (!rows.some((r) => r.commands)) return [];
  return [
    '## MongoDB commands per answer, by app and command',
    '',
    "From each app's ris_mongodb_command_duration_seconds counts over the measured run (BENCH_METRICS=1), divided by its 2xx answers; the services' background passes (outbox sweeps, recovery) are included.",
    '',
    ...rows.map(
      (r) => `- ${r.name}: ${Object.entries(r.commands ?? {}).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')} (total ${Object.values(r.commands ?? {}).reduce((a, b) => a + b, 0).toFixed(1)})`,
    ),
    '',
  ];
}

/** Writes tools/bench/results/<name><telemetry suffix>.md: `lines`, then what telemetry was on. */
export function writeResults(name, telemetry, lines) {
  mkdirSync(join(root, 'tools', 'bench', 'results'), { recursive: true });
  const file = join(root, 'tools', 'bench', 'results', `${name}${telemetry.suffix}.md`);
  writeFileSync(file, [...lines, telemetry.describe(), ''].join('\n'));
  log(`wrote ${file}`);
}
