import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { freePort } from './free-port';

export const BACKEND_SERVICES = [
  'referral-service',
  'fraud-service',
  'reward-service',
  'incentive-service',
  'catalog-marketplace-service',
  'webhook-service',
] as const;
export type BackendService = (typeof BACKEND_SERVICES)[number];
export type AppName = BackendService | 'gateway';

const DEFAULT_PORTS: Record<AppName, number> = {
  gateway: 8080,
  'referral-service': 50051,
  'fraud-service': 50052,
  'reward-service': 50053,
  'incentive-service': 50054,
  'catalog-marketplace-service': 50055,
  'webhook-service': 50056,
};

export interface StackOptions {
  /** Repository root; apps run from dist/apps/<app>/main.js. */
  root: string;
  infra: { MONGODB_URL: string; NATS_URL: string; REDIS_URL: string };
  adminToken: string;
  /** Database names become <dbPrefix><service>, e.g. ris_referral. */
  dbPrefix: string;
  eventsStream: string;
  eventsSubjectPrefix: string;
  redisKeyPrefix: string;
  /** Fixed well-known ports, or free ones picked at start (tests). */
  ports: 'default' | 'free';
  logDir: string;
  logLevel?: string;
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
}

/**
 * The whole system as real processes: six services and the gateway, each
 * the same bundle production runs. `npm start` and the end-to-end tests
 * both start it through here.
 */
export class ProcessStack {
  private readonly children = new Map<AppName, ChildProcess>();
  /** How each app's latest process ended (pending while it runs). */
  private readonly exits = new Map<AppName, Promise<{ code: number | null; signal: NodeJS.Signals | null }>>();
  private ports?: Record<AppName, number>;

  constructor(readonly options: StackOptions) {}

  get gatewayUrl(): string {
    return `http://127.0.0.1:${this.port('gateway')}`;
  }

  port(app: AppName): number {
    if (!this.ports) throw new Error('stack not started');
    return this.ports[app];
  }

  serviceUrl(app: BackendService): string {
    return `http://127.0.0.1:${this.port(app)}`;
  }

  async start(): Promise<void> {
    const entries = await Promise.all(
      (Object.keys(DEFAULT_PORTS) as AppName[]).map(
        async (app) => [app, this.options.ports === 'default' ? DEFAULT_PORTS[app] : await freePort()] as const,
      ),
    );
    this.ports = Object.fromEntries(entries) as Record<AppName, number>;
    mkdirSync(this.options.logDir, { recursive: true });
    const wanted = (app: AppName) => !this.options.apps || this.options.apps.includes(app);
    await Promise.all(BACKEND_SERVICES.filter(wanted).map((service) => this.startApp(service)));
    if (wanted('gateway')) await this.startApp('gateway');
  }

  private env(app: AppName): Record<string, string> {
    const o = this.options;
    const short = app.replace(/-service$/, '').replace(/-/g, '_');
    const urls = Object.fromEntries(
      BACKEND_SERVICES.map((s) => [`${s.replace(/-service$/, '').replace(/-/g, '_').toUpperCase()}_SERVICE_URL`, this.serviceUrl(s)]),
    );
    return {
      ...o.infra,
      ...urls,
      PORT: String(this.port(app)),
      HOST: '127.0.0.1',
      LOG_LEVEL: o.logLevel ?? 'info',
      MONGODB_DB: `${o.dbPrefix}${short}`,
      EVENTS_STREAM: o.eventsStream,
      EVENTS_SUBJECT_PREFIX: o.eventsSubjectPrefix,
      REDIS_KEY_PREFIX: o.redisKeyPrefix,
      ADMIN_TOKEN: o.adminToken,
      ...(o.env ?? {}),
      ...(o.appEnv?.[app] ?? {}),
    };
  }

  /**
   * Starts one app and waits until it reports ready. `env`: settings for
   * this start only (a test restarting a service with RIS_CRASH_AT, say).
   */
  async startApp(app: AppName, env: Record<string, string> = {}): Promise<void> {
    const log = createWriteStream(join(this.options.logDir, `${app}.log`), { flags: 'a' });
    const child = spawn(process.execPath, ['--enable-source-maps', join(this.options.root, 'dist', 'apps', app, 'main.js')], {
      cwd: this.options.root,
      env: { ...(this.options.inheritEnv ? process.env : { PATH: process.env.PATH ?? '' }), ...this.env(app), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.children.set(app, child);
    this.exits.set(app, new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))));
    let exited: string | undefined;
    child.once('exit', (code, signal) => {
      exited = `${app} exited (code ${code}, signal ${signal}); see ${join(this.options.logDir, `${app}.log`)}`;
      if (this.children.get(app) === child) this.children.delete(app);
    });
    const deadline = Date.now() + 60_000;
    while (!(await this.isReady(app))) {
      if (exited) throw new Error(exited);
      if (Date.now() > deadline) throw new Error(`${app} not ready after 60 s; see ${this.options.logDir}/${app}.log`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
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

  /** How the app's latest process ended, once it has (tests that make a service kill itself). */
  exited(app: AppName): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const exit = this.exits.get(app);
    if (!exit) throw new Error(`${app} was never started`);
    return exit;
  }

  /** Stops one app (SIGTERM, then SIGKILL) — tests use it to prove recovery. */
  async stopApp(app: AppName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.children.get(app);
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
    this.children.delete(app);
  }

  async stop(): Promise<void> {
    await this.stopApp('gateway');
    await Promise.all(BACKEND_SERVICES.map((s) => this.stopApp(s)));
  }
}
