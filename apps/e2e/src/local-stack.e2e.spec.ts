import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Health, HealthCheckResponse_ServingStatus as ServingStatus } from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { BACKEND_SERVICES, PORT_SETTINGS, freePort, removeRunData, type ProcessStack } from '@ris/stack';
import { ApiClient, OperatorSession, e2eStack, eventually, runName } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

const root = join(__dirname, '..', '..', '..');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// The local stack keeps itself running: a supervised stack restarts a
// service that dies and gives up, loudly, on one that cannot stay up; and
// `npm start` listens where its settings say.
describe('a supervised stack', () => {
  let stack: ProcessStack;
  const reported: string[] = [];
  let api: ApiClient;

  beforeAll(async () => {
    stack = ownStack('sv', {
      apps: ['gateway', 'referral-service', 'fraud-service'],
      // A setting the fraud service refuses at start-up: it exits at once, every time.
      appEnv: { 'fraud-service': { FRAUD_IP_VELOCITY_LIMIT: '-1' } },
      supervise: { initialBackoffMs: 100, report: (line) => reported.push(line) },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'supervised' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
  }, 60_000);

  afterAll(() => removeOwnStack(stack));

  it('gives up on a service that crashes at start-up, says which, how and where its log is, and runs the rest', async () => {
    expect(stack.givenUp).toEqual([
      expect.objectContaining({ app: 'fraud-service', code: 2, signal: null, exits: 5, logFile: stack.logFile('fraud-service') }),
    ]);
    expect(stack.givenUp[0].lastLines.join('\n')).toContain('FRAUD_IP_VELOCITY_LIMIT');
    const restarts = reported.filter((line) => /fraud-service exited \(exit code 2\) .* restarting it in/.test(line));
    expect(restarts.map((line) => /restarting it in ([\d.]+) s/.exec(line)?.[1])).toEqual(['0.1', '0.2', '0.4', '0.8']);
    expect(reported.join('\n')).toContain(`GAVE UP on fraud-service: it exited 5 times within 60.0 s, the last time with exit code 2`);
    expect(reported.join('\n')).toContain(`last output of fraud-service (full log: ${stack.logFile('fraud-service')})`);
    // The same notices are in the app's own log.
    expect(readFileSync(stack.logFile('fraud-service'), 'utf8')).toContain('[stack] ');
    expect(stack.pid('fraud-service')).toBeUndefined();
    // The rest runs: the gateway answers, through the referral service.
    expect((await api.get('/campaigns')).status).toBe(200);
  });

  it('restarts a service killed with SIGKILL while requests flow: it serves through the gateway again within seconds', async () => {
    const before = stack.pid('referral-service') as number;
    const statuses: number[] = [];
    let flowing = true;
    const flow = (async () => {
      while (flowing) {
        statuses.push((await api.get('/campaigns')).status);
        await pause(20);
      }
    })();
    await pause(200);
    const killedAt = Date.now();
    process.kill(before, 'SIGKILL');
    const backAfter = await eventually(
      async () => ((await api.get('/campaigns')).status === 200 && stack.pid('referral-service') !== before ? Date.now() - killedAt : 0),
      (ms) => ms > 0,
      15_000,
    );
    await pause(200);
    flowing = false;
    await flow;
    expect(backAfter).toBeLessThan(10_000);
    expect(stack.pid('referral-service')).not.toBe(before);
    // It was down in between (503), and serves again.
    expect(statuses).toContain(503);
    expect(statuses.at(-1)).toBe(200);
    expect(reported.join('\n')).toMatch(/referral-service exited \(signal SIGKILL\) after [\d.]+ s; restarting it in 0\.1 s/);
    await eventually(async () => reported.join('\n'), (text) => /referral-service restarted and ready again \(pid \d+\)/.test(text), 5_000);
  });

  it('leaves a service stopped with stopApp stopped, until startApp', async () => {
    await stack.stopApp('referral-service', 'SIGKILL');
    await pause(1_000);
    expect(stack.pid('referral-service')).toBeUndefined();
    expect((await api.get('/campaigns')).status).toBe(503);
    await stack.startApp('referral-service');
    expect((await api.get('/campaigns')).status).toBe(200);
  });
});

describe('npm start (tools/local-stack)', () => {
  const run = runName('ns');
  const runDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  const started: ChildProcess[] = [];
  const shared = e2eStack();
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    MONGODB_URL: shared.mongodbUrl,
    NATS_URL: shared.natsUrl,
    REDIS_URL: shared.redisUrl,
    MONGODB_DB_PREFIX: `${run}_`,
    EVENTS_STREAM: `${run.toUpperCase()}_DOMAIN`,
    EVENTS_SUBJECT_PREFIX: `${run}_domain`,
    REDIS_KEY_PREFIX: `${run}:`,
    ADMIN_TOKEN: `${run}-admin-token-0123456789`,
    RIS_RUN_DIR: runDir,
    LOG_LEVEL: 'warn',
  };

  /** Runs dist/tools/local-stack.js (what `npm start` runs once the apps are built) until its banner, or its exit. */
  function npmStart(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; exit: Promise<number | null>; banner: Promise<string> } {
    const child = spawn(process.execPath, [join(root, 'dist', 'tools', 'local-stack.js')], { cwd: root, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(child);
    let output = '';
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const banner = new Promise<string>((resolve, reject) => {
      const seen = (chunk: Buffer) => {
        output += String(chunk);
        if (output.includes('Press Ctrl-C to stop.')) resolve(output);
      };
      child.stdout?.on('data', seen);
      child.stderr?.on('data', seen);
      void exit.then((code) => reject(new Error(`npm start exited (${code}):\n${output}`)));
    });
    banner.catch(() => undefined);
    return { child, output: () => output, exit, banner };
  }

  afterAll(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await removeRunData({
      infra: { MONGODB_URL: shared.mongodbUrl, NATS_URL: shared.natsUrl, REDIS_URL: shared.redisUrl },
      dbPrefix: base.MONGODB_DB_PREFIX as string,
      eventsStream: base.EVENTS_STREAM as string,
      redisKeyPrefix: base.REDIS_KEY_PREFIX as string,
    });
    rmSync(runDir, { recursive: true, force: true });
  });

  it("listens where PORT, HOST and each <SERVICE>_SERVICE_PORT (or _URL) say, prints those URLs and the dashboard's login (kept, reused), and refuses a busy port naming the setting", async () => {
    const ports = Object.fromEntries(await Promise.all(Object.keys(PORT_SETTINGS).map(async (app) => [app, await freePort()])));
    const env: NodeJS.ProcessEnv = { HOST: '0.0.0.0', PORT: String(ports.gateway) };
    for (const service of BACKEND_SERVICES) env[PORT_SETTINGS[service]] = String(ports[service]);
    // One service moved by its URL instead.
    delete env.FRAUD_SERVICE_PORT;
    env.FRAUD_SERVICE_URL = `http://127.0.0.1:${ports['fraud-service']}`;

    const first = npmStart(env);
    const banner = await first.banner;
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    expect(banner).toContain(`API:          ${gatewayUrl}/api/v1`);
    expect(banner).toContain('Referral and Incentive Service is running (all services up in');
    expect(banner).toContain(`fraud ${ports['fraud-service']}`);
    expect(banner).toContain('(on 0.0.0.0)');
    const apiKey = /API key: +(\S+)/.exec(banner)?.[1];
    expect((await new ApiClient(`${gatewayUrl}/api/v1`, apiKey).get('/campaigns')).status).toBe(200);
    for (const service of BACKEND_SERVICES) {
      const health = createServiceClient(Health, `http://127.0.0.1:${ports[service]}`, { timeoutMs: 2_000 });
      expect([service, (await health.check({ service: '' })).status]).toEqual([service, ServingStatus.SERVING]);
    }

    // A second copy on a busy port fails at once, naming the setting to change.
    const second = npmStart({ ...env, PORT: String(await freePort()) });
    expect(await second.exit).toBe(1);
    expect(second.output()).toContain(`port ${ports['referral-service']} (referral-service) is already in use on 0.0.0.0`);
    expect(second.output()).toContain('Set REFERRAL_SERVICE_PORT to a free port');
    const third = npmStart({ PORT: String(ports.gateway), HOST: '0.0.0.0' });
    expect(await third.exit).toBe(1);
    expect(third.output()).toContain(`port ${ports.gateway} (gateway) is already in use on 0.0.0.0`);
    expect(third.output()).toContain('Set PORT to a free port');
    const remote = npmStart({ REWARD_SERVICE_URL: 'http://10.1.2.3:50053' });
    expect(await remote.exit).toBe(2);
    expect(remote.output()).toContain('Set REWARD_SERVICE_PORT to move reward-service');

    // The dashboard: its URL and a login that works, kept (0600) in the run directory; its administrator is OWNER of the development app.
    expect(banner).toContain(`Dashboard:    ${gatewayUrl}/dashboard`);
    const loginFile = join(runDir, 'dashboard-login.json');
    const login = JSON.parse(readFileSync(loginFile, 'utf8')) as { email: string; password: string };
    expect(statSync(loginFile).mode & 0o777).toBe(0o600);
    expect(banner).toContain(`Login:        admin@localhost.test / ${login.password}   (kept in ${loginFile})`);
    const admin = await OperatorSession.signIn(login.email, login.password, gatewayUrl);
    expect(admin.signedIn.operator).toMatchObject({ email: 'admin@localhost.test', isAdmin: true });
    const devAppId = (JSON.parse(readFileSync(join(runDir, 'dev-app.json'), 'utf8')) as { appId: string }).appId;
    expect(admin.signedIn.currentAppId).toBe(devAppId);
    const members = await admin.console.get(`/apps/${devAppId}/members`);
    expect(members.body.members).toEqual([expect.objectContaining({ operatorId: admin.signedIn.operator.id, role: 'OWNER' })]);
    expect((await fetch(`${gatewayUrl}/dashboard`)).status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(0);

    // Run again, with an administrator of the shell's: that one is made and printed (not its password); the kept login is reused as it was.
    const again = npmStart({ ...env, DASHBOARD_ADMIN_EMAIL: 'Boss@Example.test', DASHBOARD_ADMIN_PASSWORD: 'the boss password' });
    const rerun = await again.banner;
    expect(rerun).toContain('Login:        boss@example.test / the password in DASHBOARD_ADMIN_PASSWORD');
    expect(rerun).not.toContain('the boss password');
    expect((await OperatorSession.signIn('boss@example.test', 'the boss password', gatewayUrl)).signedIn.operator.isAdmin).toBe(true);
    expect(JSON.parse(readFileSync(loginFile, 'utf8'))).toEqual(login);
    await OperatorSession.signIn(login.email, login.password, gatewayUrl);
    again.child.kill('SIGTERM');
    expect(await again.exit).toBe(0);
  });
});
