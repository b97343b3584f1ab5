// `npm start`: runs the whole system locally on the well-known ports (or
// those PORT, HOST and <SERVICE>_SERVICE_PORT say), keeps it running
// (a process that dies is restarted; one that keeps dying is given up on,
// loudly), creates (once) a development app and prints the gateway URL and
// its key.
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

async function devApiKey(gatewayUrl: string, token: string): Promise<string> {
  const file = join(runDir, 'dev-app.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { apiKey: string };
    const probe = await fetch(`${gatewayUrl}/api/v1/campaigns?limit=1`, { headers: { authorization: `Bearer ${saved.apiKey}` } });
    // Only 401 says the key is gone (another database); a 503 of a service that is down does not.
    if (probe.status !== 401) return saved.apiKey;
  }
  const res = await fetch(`${gatewayUrl}/admin/v1/apps`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Development app' }),
  });
  if (res.status !== 201) throw new Error(`creating the development app failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { app: { id: string }; apiKey: string };
  writeFileSync(file, JSON.stringify({ appId: body.app.id, apiKey: body.apiKey }, null, 2), { mode: 0o600 });
  return body.apiKey;
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
  const apiKey = await devApiKey(stack.gatewayUrl, token);
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
