// `npm start`: runs the whole system locally on the well-known ports (or
// those PORT, HOST and <SERVICE>_SERVICE_PORT say), keeps it running
// (a process that dies is restarted; one that keeps dying is given up on,
// loudly), creates (once) a development app and the dashboard's instance
// administrator (OWNER of that app), and prints the gateway URL, the app's
// key, the dashboard's URL and its login.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newKeyringEntry } from '@ris/secrets';
import { BACKEND_SERVICES, ListenSettingsError, ProcessStack, listenSettings, readInfraEnv, type GivenUp, type ListenSettings } from '@ris/stack';

const root = join(__dirname, '..', '..');
// Where the admin token, the development app and the logs live (a second copy can use its own).
const runDir = process.env.RIS_RUN_DIR || join(root, '.run');
mkdirSync(runDir, { recursive: true });

function adminToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = join(runDir, 'admin-token');
  if (!existsSync(file)) writeFileSync(file, randomBytes(24).toString('hex'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * SECRETS_KEYS: the shell's, else a development master key made once in
 * .run/secrets-keys (kept, so secrets stored by earlier runs still open).
 * To try a key rotation locally, put a new entry first in that file.
 */
function secretsKeys(): string {
  if (process.env.SECRETS_KEYS) return process.env.SECRETS_KEYS;
  const file = join(runDir, 'secrets-keys');
  if (!existsSync(file)) writeFileSync(file, newKeyringEntry('dev1'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

interface DevApp {
  appId: string;
  apiKey: string;
}

async function devApp(gatewayUrl: string, token: string): Promise<DevApp> {
  const file = join(runDir, 'dev-app.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DevApp;
    const probe = await fetch(`${gatewayUrl}/api/v1/campaigns?limit=1`, { headers: { authorization: `Bearer ${saved.apiKey}` } });
    // Only 401 says the key is gone (another database); a 503 of a service that is down does not.
    if (probe.status !== 401) return saved;
  }
  const res = await fetch(`${gatewayUrl}/admin/v1/apps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Development app' }),
  });
  if (res.status !== 201) throw new Error(`creating the development app failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { app: { id: string }; apiKey: string };
  const created = { appId: body.app.id, apiKey: body.apiKey };
  writeFileSync(file, JSON.stringify(created, null, 2), { mode: 0o600 });
  return created;
}

interface DashboardLogin {
  email: string;
  /** null when it came from DASHBOARD_ADMIN_PASSWORD (not printed). */
  shownPassword: string | null;
  /** Why it could not be made sure of, if it could not. */
  problem?: string;
}

/**
 * The dashboard's instance administrator: DASHBOARD_ADMIN_EMAIL and
 * DASHBOARD_ADMIN_PASSWORD when set, else a development one whose generated
 * password is kept in <run dir>/dashboard-login.json (mode 0600, reused by
 * later runs). Made sure of through the admin API: created when missing,
 * its password set again when the one here no longer signs in (another
 * database), and made OWNER of the development app.
 */
async function dashboardAdmin(gatewayUrl: string, token: string, appId: string): Promise<DashboardLogin> {
  const fromEnv = process.env.DASHBOARD_ADMIN_EMAIL || process.env.DASHBOARD_ADMIN_PASSWORD;
  let email: string;
  let password: string;
  if (fromEnv) {
    if (!process.env.DASHBOARD_ADMIN_EMAIL || !process.env.DASHBOARD_ADMIN_PASSWORD) {
      return { email: '(none)', shownPassword: null, problem: 'set both DASHBOARD_ADMIN_EMAIL and DASHBOARD_ADMIN_PASSWORD, or neither' };
    }
    email = process.env.DASHBOARD_ADMIN_EMAIL.trim().toLowerCase();
    password = process.env.DASHBOARD_ADMIN_PASSWORD;
  } else {
    const file = join(runDir, 'dashboard-login.json');
    if (!existsSync(file)) {
      writeFileSync(file, JSON.stringify({ email: 'admin@localhost.test', password: randomBytes(18).toString('base64url') }, null, 2), { mode: 0o600 });
    }
    ({ email, password } = JSON.parse(readFileSync(file, 'utf8')) as { email: string; password: string });
  }
  const shownPassword = fromEnv ? null : password;
  const admin = (method: string, path: string, body?: unknown) =>
    fetch(`${gatewayUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  const failed = async (what: string, res: Response) => ({ email, shownPassword, problem: `${what}: ${res.status} ${await res.text()}` });

  const signIn = await fetch(`${gatewayUrl}/console/v1/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (signIn.status === 200) {
    // Only a probe: its session is ended at once.
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
    await fetch(`${gatewayUrl}/console/v1/session`, { method: 'DELETE', headers: { cookie, 'x-csrf-token': csrfToken } });
  } else if (signIn.status === 429) {
    return { email, shownPassword, problem: 'too many failed sign-ins of this account just now; try again in 15 minutes' };
  }
  const found = await admin('GET', `/operators?email=${encodeURIComponent(email)}`);
  if (found.status !== 200) return failed('looking up the dashboard administrator failed', found);
  let operatorId = ((await found.json()) as { operators: Array<{ id: string }> }).operators[0]?.id;
  if (!operatorId) {
    const created = await admin('POST', '/operators', { email, password, isAdmin: true });
    if (created.status !== 201) return failed('creating the dashboard administrator failed', created);
    operatorId = ((await created.json()) as { operator: { id: string } }).operator.id;
  } else if (signIn.status !== 200) {
    const reset = await admin('POST', `/operators/${encodeURIComponent(operatorId)}/password`, { password });
    if (reset.status !== 200) return failed("setting the dashboard administrator's password failed", reset);
  }
  const member = await admin('PUT', `/apps/${encodeURIComponent(appId)}/members/${encodeURIComponent(operatorId)}`, { role: 'OWNER' });
  if (member.status !== 200) return failed('making the dashboard administrator OWNER of the development app failed', member);
  return { email, shownPassword };
}

const given = (failures: GivenUp[]) => failures.map((f) => f.app).join(', ');

async function main(): Promise<void> {
  let listen: ListenSettings;
  try {
    listen = listenSettings(process.env);
  } catch (err) {
    if (!(err instanceof ListenSettingsError)) throw err;
    process.stderr.write(`npm start: ${err.message}\n`);
    process.exit(2);
  }
  const token = adminToken();
  const started = Date.now();
  let running = false;
  const logDir = join(runDir, 'logs');
  const stack = new ProcessStack({
    root,
    infra: readInfraEnv(root),
    adminToken: token,
    secretsKeys: secretsKeys(),
    dbPrefix: process.env.MONGODB_DB_PREFIX || 'ris_',
    eventsStream: process.env.EVENTS_STREAM || 'DOMAIN',
    eventsSubjectPrefix: process.env.EVENTS_SUBJECT_PREFIX || 'domain',
    redisKeyPrefix: process.env.REDIS_KEY_PREFIX || 'ris:',
    ports: listen.ports,
    host: listen.host,
    logDir,
    logLevel: process.env.LOG_LEVEL ?? 'info',
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? 'true' },
    inheritEnv: true,
    supervise: {
      onGiveUp: (failure) => {
        if (!running) return;
        process.stderr.write(
          `\nnpm start: ${failure.app} is DOWN and stays down (given up, see above); the API answers 503 for what needs it.\n` +
            'Fix the cause and run npm start again; stopping it now exits with status 1.\n\n',
        );
        if (failure.app === 'gateway') void shutdown();
      },
    },
  });
  const shutdown = async () => {
    running = false;
    process.stderr.write('\nstopping…\n');
    await stack.stop();
    if (stack.givenUp.length) {
      process.stderr.write(`npm start: stopped; ${given(stack.givenUp)} had been given up on (exit status 1)\n`);
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
  try {
    await stack.start();
  } catch (err) {
    process.stderr.write(`start failed: ${(err as Error).message}\n`);
    await stack.stop();
    process.exit(1);
  }
  if (stack.givenUp.some((f) => f.app === 'gateway')) {
    process.stderr.write('npm start: the gateway could not be kept running (see above): nothing to serve the API; stopping.\n');
    await shutdown();
    return;
  }
  running = true;
  const { appId, apiKey } = await devApp(stack.gatewayUrl, token);
  const login = await dashboardAdmin(stack.gatewayUrl, token, appId);
  const loginFile = join(runDir, 'dashboard-login.json');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const down = stack.givenUp;
  const services = BACKEND_SERVICES.map((s) => `${s.replace(/-service$/, '')} ${stack.port(s)}`).join(', ');
  process.stdout.write(
    [
      '',
      down.length
        ? `Referral and Incentive Service is running WITHOUT ${given(down)} (given up after repeated crashes; see above).`
        : `Referral and Incentive Service is running (all services up in ${seconds} s).`,
      '',
      `  API:          ${stack.gatewayUrl}/api/v1`,
      `  Reference:    ${stack.gatewayUrl}/docs`,
      `  API key:      ${apiKey}`,
      `  Dashboard:    ${stack.gatewayUrl}/dashboard`,
      login.shownPassword
        ? `  Login:        ${login.email} / ${login.shownPassword}   (kept in ${loginFile})`
        : `  Login:        ${login.email} / the password in DASHBOARD_ADMIN_PASSWORD`,
      ...(login.problem ? [`  LOGIN PROBLEM: ${login.problem}`] : []),
      `  Admin token:  ${token}   (for ${stack.gatewayUrl}/admin/v1 and npm run admin)`,
      `  Services:     ${services} (on ${stack.host})`,
      `  Logs:         ${logDir}`,
      ...(down.length ? [`  NOT RUNNING:  ${given(down)}: the API answers 503 for what needs it; stopping npm start exits with status 1`] : []),
      '',
      'Try:',
      `  curl -s -X POST ${stack.gatewayUrl}/api/v1/campaigns -H 'Authorization: Bearer ${apiKey}' \\`,
      `    -H 'Content-Type: application/json' -d '{"name":"Launch","referrerReward":{"amount":10,"fulfillmentType":"DISCOUNT_CODE"}}'`,
      '',
      'A service that dies is restarted (notices on stderr and in its log). Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

void main();
