// `npm start`: runs the whole system locally on the well-known ports,
// creates (once) a development app and prints the gateway URL and its key.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newKeyringEntry } from '@ris/secrets';
import { ProcessStack, readInfraEnv } from '@ris/stack';

const root = join(__dirname, '..', '..');
const runDir = join(root, '.run');
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
    if (probe.status === 200) return saved.apiKey;
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

async function main(): Promise<void> {
  const token = adminToken();
  const started = Date.now();
  const stack = new ProcessStack({
    root,
    infra: readInfraEnv(root),
    adminToken: token,
    secretsKeys: secretsKeys(),
    dbPrefix: process.env.MONGODB_DB_PREFIX ?? 'ris_',
    eventsStream: 'DOMAIN',
    eventsSubjectPrefix: 'domain',
    redisKeyPrefix: 'ris:',
    ports: 'default',
    logDir: join(runDir, 'logs'),
    logLevel: process.env.LOG_LEVEL ?? 'info',
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? 'true' },
    inheritEnv: true,
  });
  const shutdown = async () => {
    process.stderr.write('\nstopping…\n');
    await stack.stop();
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
  const apiKey = await devApiKey(stack.gatewayUrl, token);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      '',
      `Referral and Incentive Service is running (all services up in ${seconds} s).`,
      '',
      `  API:          ${stack.gatewayUrl}/api/v1`,
      `  Reference:    ${stack.gatewayUrl}/docs`,
      `  API key:      ${apiKey}`,
      `  Admin token:  ${token}   (for ${stack.gatewayUrl}/admin/v1 and npm run admin)`,
      `  Logs:         ${join(runDir, 'logs')}`,
      '',
      'Try:',
      `  curl -s -X POST ${stack.gatewayUrl}/api/v1/campaigns -H 'Authorization: Bearer ${apiKey}' \\`,
      `    -H 'Content-Type: application/json' -d '{"name":"Launch","referrerReward":{"amount":10,"fulfillmentType":"DISCOUNT_CODE"}}'`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

void main();
