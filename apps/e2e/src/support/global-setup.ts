import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
// By its path: Jest maps no @ris/* alias here (the file imports no alias itself).
import { ownStackOptions, runName } from '../../../../libs/testing/src/own-stack';

// Jest does not apply moduleNameMapper to global set-up, so the launcher is
// loaded from its bundle (built here, like every app).
// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- a type-only view of the bundle
type StackModule = typeof import('../../../../libs/stack/src/index');

const root = join(__dirname, '..', '..', '..', '..');
const BACKEND = ['referral-service', 'fraud-service', 'reward-service', 'incentive-service', 'catalog-marketplace-service', 'webhook-service'];

export default async function globalSetup(): Promise<void> {
  execFileSync(process.execPath, [join(root, 'tools', 'build-apps.mjs')], { stdio: 'inherit' });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ProcessStack, readInfraEnv } = require(join(root, 'dist', 'tools', 'stack.js')) as StackModule;
  const infra = readInfraEnv(root);
  const stack = new ProcessStack(
    ownStackOptions(runName('t'), 'e2e-logs', {
      root,
      infra,
      logLevel: process.env.E2E_LOG_LEVEL ?? 'info',
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
      appEnv: {
        // Retries after about 1, 1 and 2 s instead of over 3 days.
        'webhook-service': { WEBHOOK_RETRY_SCHEDULE: '1,1,2' },
        // Functional tests must not depend on how fast this machine sends
        // them against 50/s: the rate-limit test has a gateway of its own
        // with the defaults (gateway-conventions.e2e.spec.ts).
        // Every test signs in from 127.0.0.1: the per-address sign-in
        // limit (20 failures in 15 min) would let one file's wrong
        // passwords lock out every other file's sign-ins; the throttling
        // test has a gateway of its own with the defaults (console-sessions.e2e.spec.ts).
        // A first wait of a minute: a test sees a slowed sign-in still slowed however slow this machine is.
        gateway: { RATE_LIMIT_PER_SECOND: '2000', RATE_LIMIT_BURST: '2000', LOGIN_FREE_FAILURES_PER_ADDRESS: '1000000', LOGIN_FIRST_DELAY_SECONDS: '60' },
      },
    }),
  );
  await stack.start();
  (globalThis as { __STACK__?: unknown }).__STACK__ = stack;
  // Test workers start after this and inherit these.
  Object.assign(process.env, {
    E2E_GATEWAY_URL: stack.gatewayUrl,
    E2E_ADMIN_TOKEN: stack.options.adminToken,
    // The gateway's master keys: embed-token tests sign an expired token as the gateway would (support/embed-token-signer.ts).
    E2E_SECRETS_KEYS: stack.options.secretsKeys,
    E2E_NATS_URL: infra.NATS_URL,
    E2E_MONGODB_URL: infra.MONGODB_URL,
    E2E_REDIS_URL: infra.REDIS_URL,
    E2E_EVENTS_STREAM: stack.options.eventsStream,
    E2E_EVENTS_SUBJECT_PREFIX: stack.options.eventsSubjectPrefix,
    E2E_DB_PREFIX: stack.options.dbPrefix,
    E2E_REDIS_KEY_PREFIX: stack.options.redisKeyPrefix,
    E2E_LOG_DIR: stack.options.logDir,
    // Where each app serves /metrics (metrics.e2e.spec.ts scrapes them with a real Prometheus).
    E2E_METRICS_PORTS: JSON.stringify(Object.fromEntries(['gateway', ...BACKEND].map((app) => [app, stack.metricsPort(app as never)]))),
    E2E_SERVICE_URLS: JSON.stringify(
      Object.fromEntries(BACKEND.map((s) => [s, stack.serviceUrl(s as never)])),
    ),
  });
}
