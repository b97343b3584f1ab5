import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_METRICS_PORTS } from '@ris/config';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { BACKEND_SERVICES, DEFAULT_PORTS, httpUrl, reachableHost, type AppName, type BackendService } from './apps';
import { freePort, listenProblem } from './free-port';
import { PORT_SETTINGS } from './listen-settings';
import { RecentLines } from './recent-lines';
import { appDatabase } from './run-data';
import { DEFAULT_SUPERVISION, RestartPolicy, type SupervisionPolicy } from './restart-policy';

export { BACKEND_SERVICES, type AppName, type BackendService } from './apps';

export interface SupervisionOptions extends Partial<SupervisionPolicy> {
  /** Where restart and give-up notices go, line by line, besides the app's log (default: stderr). */
  report?: (line: string) => void;
  /** Called once when the stack gives up on an app. */
  onGiveUp?: (failure: GivenUp) => void;
}

/** An app the stack stopped restarting: it kept exiting. */
export interface GivenUp {
  app: AppName;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Exits within `withinMs`. */
  exits: number;
  withinMs: number;
  logFile: string;
  /** Its last lines of output. */
  lastLines: string[];
  at: Date;
}

export interface StackOptions {
  /** Repository root; apps run from dist/apps/<app>/main.js. */
  root: string;
  infra: { MONGODB_URL: string; NATS_URL: string; REDIS_URL: string };
  adminToken: string;
  /**
   * SECRETS_KEYS of the apps that encrypt secrets at rest: the master keys,
   * "<id>:<base64 of 32 bytes>", current first (libs/secrets).
   */
  secretsKeys: string;
  /** Database names become <dbPrefix><service>, e.g. ris_referral. */
  dbPrefix: string;
  eventsStream: string;
  eventsSubjectPrefix: string;
  redisKeyPrefix: string;
  /**
   * The well-known ports ('default'), those with some apps moved (an object:
   * npm start's PORT and <SERVICE>_SERVICE_PORT), or free ones picked at
   * start (tests). Fixed ports are checked before anything starts: a busy
   * one fails the start, naming the setting that moves it.
   */
  ports: 'default' | 'free' | Partial<Record<AppName, number>>;
  /** Listen address of every app (default 127.0.0.1); a wildcard is reached on loopback. */
  host?: string;
  /**
   * Each app serves /metrics on a METRICS_PORT of its own (default true):
   * the well-known ones, or free ones when `ports` is 'free'. false sets
   * METRICS_PORT=0 (metrics off: the benchmarks' default, so they measure
   * the system without it unless asked).
   */
  metrics?: boolean;
  logDir: string;
  logLevel?: string;
  /** Node options every app starts with besides the stack's own (a benchmark's --cpu-prof, which NODE_OPTIONS refuses). */
  nodeArgs?: string[];
  /** Extra settings for every app, or for one. */
  env?: Record<string, string>;
  /**
   * Start the apps with this process's environment underneath the stack's
   * own settings (npm start: a setting exported in the shell reaches every
   * service). Tests and benchmarks leave it off so the machine's environment
   * cannot change what they measure.
   */
  inheritEnv?: boolean;
  appEnv?: Partial<Record<AppName, Record<string, string>>>;
  /** Start only these apps (default: all). The others keep their ports and URLs but do not run. */
  apps?: AppName[];
  /**
   * Restart an app that exits unexpectedly (not through stopApp or stop),
   * after a backoff that doubles from 0.5 s up to 30 s and starts over once
   * it ran 30 s; give up after 5 exits within 60 s, reporting the app, its
   * exit and its last output. npm start turns it on. Off by default, and so
   * in the end-to-end tests and benchmarks: there a crash is a failure to
   * see, which a restart would hide (a test passing because its service came
   * back); tests that stop a service do it with stopApp.
   */
  supervise?: boolean | SupervisionOptions;
}

/** One app's processes over the life of the stack. */
interface AppRun {
  child?: ChildProcess;
  startedAt: number;
  log: WriteStream;
  recent: RecentLines;
  policy: RestartPolicy;
  /** Stopped on purpose (stopApp): not restarted until startApp. */
  stopped: boolean;
  restartTimer?: NodeJS.Timeout;
  /** Why the last process exited. */
  exit?: string;
  /** How the latest process ended, once it has. */
  ended?: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Settings given to the latest startApp, for its process and its restarts. */
  env: Record<string, string>;
  givenUp?: GivenUp;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const READY_WITHIN_MS = 60_000;

/**
 * The whole system as real processes: six services and the gateway, each
 * the same bundle production runs. `npm start` and the end-to-end tests
 * both start it through here.
 */
export class ProcessStack {
  private readonly runs = new Map<AppName, AppRun>();
  private ports?: Record<AppName, number>;
  private metricsPorts?: Record<AppName, number>;
  private stopping = false;
  private readonly supervision?: { policy: SupervisionPolicy; report: (line: string) => void; onGiveUp?: (failure: GivenUp) => void };
  /** Apps given up on (supervised stacks), in order. */
  readonly givenUp: GivenUp[] = [];

  constructor(readonly options: StackOptions) {
    if (options.supervise) {
      const given: SupervisionOptions = options.supervise === true ? {} : options.supervise;
      const { report, onGiveUp, ...policy } = given;
      this.supervision = {
        policy: { ...DEFAULT_SUPERVISION, ...policy },
        report: report ?? ((line) => process.stderr.write(`${line}\n`)),
        onGiveUp,
      };
    }
  }

  get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  get gatewayUrl(): string {
    return httpUrl(reachableHost(this.host), this.port('gateway'));
  }

  port(app: AppName): number {
    if (!this.ports) throw new Error('stack not started');
    return this.ports[app];
  }

  /** Where the app serves /metrics (0: metrics off). */
  metricsPort(app: AppName): number {
    if (!this.metricsPorts) throw new Error('stack not started');
    return this.metricsPorts[app];
  }

  serviceUrl(app: BackendService): string {
    return httpUrl(reachableHost(this.host), this.port(app));
  }

  /** The pid of the app's running process, if one runs. */
  pid(app: AppName): number | undefined {
    return this.runs.get(app)?.child?.pid;
  }

  logFile(app: AppName): string {
    return join(this.options.logDir, `${app}.log`);
  }

  async start(): Promise<void> {
    this.stopping = false;
    const { ports } = this.options;
    const entries = await Promise.all(
      (Object.keys(DEFAULT_PORTS) as AppName[]).map(async (app) => {
        if (ports === 'free') return [app, await freePort()] as const;
        return [app, (ports === 'default' ? undefined : ports[app]) ?? DEFAULT_PORTS[app]] as const;
      }),
    );
    this.ports = Object.fromEntries(entries) as Record<AppName, number>;
    const metricsEntries = await Promise.all(
      (Object.keys(DEFAULT_PORTS) as AppName[]).map(async (app) => {
        if (this.options.metrics === false) return [app, 0] as const;
        return [app, ports === 'free' ? await freePort() : DEFAULT_METRICS_PORTS[app.replace(/-service$/, '')]] as const;
      }),
    );
    this.metricsPorts = Object.fromEntries(metricsEntries) as Record<AppName, number>;
    mkdirSync(this.options.logDir, { recursive: true });
    const wanted = (app: AppName) => !this.options.apps || this.options.apps.includes(app);
    if (ports !== 'free') await this.checkPorts((Object.keys(DEFAULT_PORTS) as AppName[]).filter(wanted));
    await Promise.all(BACKEND_SERVICES.filter(wanted).map((service) => this.startApp(service)));
    if (wanted('gateway')) await this.startApp('gateway');
  }

  /** Fixed ports must be free before anything starts: a busy one is a clear error, not a crashing app. */
  private async checkPorts(apps: AppName[]): Promise<void> {
    for (const app of apps) {
      const port = this.port(app);
      const problem = await listenProblem(this.host, port);
      if (problem === null) continue;
      const setting = PORT_SETTINGS[app];
      if (problem === 'EADDRINUSE') {
        throw new Error(
          `port ${port} (${app}) is already in use on ${this.host}: another npm start, or another program, listens there. ` +
            `Set ${setting} to a free port (e.g. ${setting}=<port> npm start).`,
        );
      }
      throw new Error(`cannot listen on ${this.host}:${port} for ${app} (${problem}): check HOST and ${setting}.`);
    }
  }

  private env(app: AppName): Record<string, string> {
    const o = this.options;
    const urls = Object.fromEntries(
      BACKEND_SERVICES.map((s) => [`${s.replace(/-service$/, '').replace(/-/g, '_').toUpperCase()}_SERVICE_URL`, this.serviceUrl(s)]),
    );
    return {
      ...o.infra,
      ...urls,
      PORT: String(this.port(app)),
      METRICS_PORT: String(this.metricsPort(app)),
      HOST: this.host,
      LOG_LEVEL: o.logLevel ?? 'info',
      MONGODB_DB: appDatabase(o.dbPrefix, app),
      EVENTS_STREAM: o.eventsStream,
      EVENTS_SUBJECT_PREFIX: o.eventsSubjectPrefix,
      REDIS_KEY_PREFIX: o.redisKeyPrefix,
      ADMIN_TOKEN: o.adminToken,
      SECRETS_KEYS: o.secretsKeys,
      ...(o.env ?? {}),
      ...(o.appEnv?.[app] ?? {}),
    };
  }

  private run(app: AppName): AppRun {
    let run = this.runs.get(app);
    if (!run) {
      const log = createWriteStream(this.logFile(app), { flags: 'a' });
      // A failing log disk must not take the stack down with an unhandled 'error'.
      log.on('error', () => undefined);
      run = { startedAt: 0, log, recent: new RecentLines(), policy: new RestartPolicy(this.supervision?.policy), stopped: false, env: {} };
      this.runs.set(app, run);
    }
    return run;
  }

  /**
   * Starts one app and waits until it reports ready. Supervised, an exit
   * while starting is restarted like any other, and this resolves once the
   * app is ready or given up on (see givenUp); unsupervised, it throws.
   * `env`: settings for this start only (a test restarting a service with
   * RIS_CRASH_AT, say).
   */
  async startApp(app: AppName, env: Record<string, string> = {}): Promise<void> {
    const run = this.run(app);
    run.env = env;
    clearTimeout(run.restartTimer);
    run.stopped = false;
    run.givenUp = undefined;
    // A fresh start forgets earlier exits.
    run.policy = new RestartPolicy(this.supervision?.policy);
    this.spawn(app);
    let child = run.child;
    let deadline = Date.now() + READY_WITHIN_MS;
    while (!(await this.isReady(app))) {
      if (run.givenUp) return;
      if (run.stopped) throw new Error(`${app} was stopped while starting`);
      if (!this.supervision && !run.child) throw new Error(run.exit);
      if (run.child && run.child !== child) {
        // Restarted: a new attempt, with its own time to get ready.
        child = run.child;
        deadline = Date.now() + READY_WITHIN_MS;
      }
      if (Date.now() > deadline) throw new Error(`${app} not ready after ${READY_WITHIN_MS / 1000} s; see ${this.logFile(app)}`);
      await pause(150);
    }
  }

  private spawn(app: AppName): void {
    const run = this.run(app);
    // A give-up report shows the last attempt's output; the earlier ones are in the log.
    run.recent.clear();
    const child = spawn(process.execPath, ['--enable-source-maps', ...(this.options.nodeArgs ?? []), join(this.options.root, 'dist', 'apps', app, 'main.js')], {
      cwd: this.options.root,
      env: { ...(this.options.inheritEnv ? process.env : { PATH: process.env.PATH ?? '' }), ...this.env(app), ...run.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    run.ended = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    for (const output of [child.stdout, child.stderr]) {
      output?.on('data', (chunk: Buffer) => run.recent.push(chunk));
      // One log file across restarts: the stack closes it, not the process.
      output?.pipe(run.log, { end: false });
    }
    run.child = child;
    run.startedAt = Date.now();
    run.exit = undefined;
    // 'close', not 'exit': the last output has arrived by then (a give-up report shows it).
    child.once('close', (code, signal) => this.exited(app, child, code, signal));
  }

  private exited(app: AppName, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const run = this.runs.get(app);
    if (run?.child !== child) return;
    run.child = undefined;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const uptime = Date.now() - run.startedAt;
    run.exit = `${app} exited (${how}); see ${this.logFile(app)}`;
    if (this.stopping || run.stopped) return;
    if (!this.supervision) {
      this.notice(app, `${app} exited unexpectedly (${how}) after ${seconds(uptime)}; not restarted (this stack does not supervise). Log: ${this.logFile(app)}`);
      return;
    }
    const { policy } = this.supervision;
    const decision = run.policy.onExit(Date.now(), uptime);
    if (decision.restart) {
      this.notice(
        app,
        `${app} exited (${how}) after ${seconds(uptime)}; restarting it in ${seconds(decision.delayMs)} ` +
          `(${decision.recentExits} exit(s) within ${seconds(policy.giveUpWindowMs)}; the stack gives up at ${policy.giveUpAfterExits})`,
      );
      run.restartTimer = setTimeout(() => this.restart(app), decision.delayMs);
      return;
    }
    const failure: GivenUp = {
      app,
      code,
      signal,
      exits: decision.recentExits,
      withinMs: policy.giveUpWindowMs,
      logFile: this.logFile(app),
      lastLines: run.recent.last(),
      at: new Date(),
    };
    run.givenUp = failure;
    this.givenUp.push(failure);
    for (const line of describeGiveUp(failure)) this.notice(app, line);
    this.supervision.onGiveUp?.(failure);
  }

  private restart(app: AppName): void {
    const run = this.runs.get(app);
    if (!run || this.stopping || run.stopped) return;
    run.restartTimer = undefined;
    this.spawn(app);
    const child = run.child;
    void (async () => {
      const deadline = Date.now() + READY_WITHIN_MS;
      while (run.child === child && Date.now() < deadline) {
        if (await this.isReady(app)) {
          if (run.child === child) this.notice(app, `${app} restarted and ready again (pid ${child?.pid})`);
          return;
        }
        await pause(150);
      }
    })();
  }

  /** A line to stderr (or the report sink) and to the app's log. */
  private notice(app: AppName, message: string): void {
    const line = `[stack] ${new Date().toISOString()} ${message}`;
    this.runs.get(app)?.log.write(`${line}\n`);
    (this.supervision?.report ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }

  private async isReady(app: AppName): Promise<boolean> {
    try {
      if (app === 'gateway') {
        const res = await fetch(`${this.gatewayUrl}/healthz`);
        return res.status === 200;
      }
      const health = createServiceClient(Health, this.serviceUrl(app), { timeoutMs: 1000 });
      return (await health.check({ service: '' })).status === ServingStatus.SERVING;
    } catch {
      return false;
    }
  }

  /** How the app's latest process ended, once it has (tests that make a service kill itself, RIS_CRASH_AT). */
  lastExit(app: AppName): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const ended = this.runs.get(app)?.ended;
    if (!ended) throw new Error(`${app} was never started`);
    return ended;
  }

  /**
   * Stops one app (SIGTERM, then SIGKILL after 20 s, past the app's own SHUTDOWN_GRACE_MS of 15 s) and keeps it stopped:
   * a supervised stack does not restart it until startApp. Tests use it to
   * prove recovery.
   */
  async stopApp(app: AppName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const run = this.runs.get(app);
    if (!run) return;
    run.stopped = true;
    clearTimeout(run.restartTimer);
    run.restartTimer = undefined;
    const child = run.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.stopApp('gateway');
    await Promise.all(BACKEND_SERVICES.map((s) => this.stopApp(s)));
    for (const run of this.runs.values()) run.log.end();
    this.runs.clear();
  }
}

/** The loud report of a give-up: which app, how it exited, its last output and where its log is. */
export function describeGiveUp(failure: GivenUp): string[] {
  const how = failure.signal ? `signal ${failure.signal}` : `exit code ${failure.code}`;
  return [
    `GAVE UP on ${failure.app}: it exited ${failure.exits} times within ${seconds(failure.withinMs)}, the last time with ${how}. ` +
      `It is not running and will not be restarted; the rest of the stack keeps running.`,
    `  last output of ${failure.app} (full log: ${failure.logFile}):`,
    ...(failure.lastLines.length ? failure.lastLines.map((line) => `  | ${line}`) : ['  | (nothing)']),
  ];
}
