import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import type { ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, createOperator, createTestApp, e2eStack, runName, type TestApp, type TestOperator } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { runSchemathesis } from './support/schemathesis';

/*
 * The OpenAPI document is the contract: Schemathesis (pinned in
 * tools/infra/up.sh) generates requests from /api/v1/openapi.json, valid and
 * invalid ones, through every phase (examples, coverage, fuzzing, stateful
 * chains along the document's links) and runs every check on the answers
 * (no 5xx, statuses, headers and bodies as documented, valid data accepted,
 * invalid data refused, 405 with Allow for undeclared methods, auth
 * enforced, one app never reading another's objects, …). Any finding fails
 * the test with the request that reproduces it.
 *
 * Each run goes twice: with a fixed seed (the same cases every time) and
 * with a seed of this run (new cases every run; FUZZ_SEED=<seed> replays
 * one). FUZZ_EXAMPLES sets the examples per operation of the fuzzing phase,
 * FUZZ_SCENARIOS the stateful phase's scenarios, for the fixed seed
 * (FUZZ_PATHS=<regex> limits the public API's run to those paths); the
 * run's seed gets half of each (a CI run has 30 minutes for every test, and
 * the fixed seed's cases are the regression set). At 20 examples and 100
 * scenarios the public API took about 3 minutes on a quiet machine, but the
 * whole file 10 to 17 minutes beside the other end-to-end files (17 on CI with
 * 15 and 75, which left the run 2 minutes of its 30); with payouts and the
 * Stripe endpoints the public API has 12 more operations, and at 10 and 50
 * the file still took 15 of a local full run's 24 minutes: 8 and 40.
 */
const FIXED_SEED = 20261124;
const RUN_SEED = Number(process.env.FUZZ_SEED) || randomInt(1, 2 ** 31 - 1);
const EXAMPLES = Number(process.env.FUZZ_EXAMPLES) || 8;
const SCENARIOS = Number(process.env.FUZZ_SCENARIOS) || 40;
/** What a pass generates: the examples per operation and the stateful scenarios. */
type Budget = { examples: number; scenarios: number };
const FIXED_BUDGET: Budget = { examples: EXAMPLES, scenarios: SCENARIOS };
// A seed given to replay gets the whole budget, so it finds again what it found.
const RUN_BUDGET: Budget = process.env.FUZZ_SEED ? FIXED_BUDGET : { examples: Math.ceil(EXAMPLES / 2), scenarios: Math.ceil(SCENARIOS / 2) };
const root = join(__dirname, '..', '..', '..');

/**
 * schemathesis.toml. Every check runs; what is set here, and why:
 * - Strings are generated as valid Unicode (codec utf-8). An unpaired UTF-16
 *   surrogate is not Unicode: JSON Schema validators cannot even hold one,
 *   so the document cannot say it is refused; the gateway refuses it in any
 *   body with 400 (I-JSON, RFC 7493), which contract-inputs.e2e.spec.ts checks.
 * - positive_data_acceptance also takes 422: it answers a well-formed request
 *   that a rule about stored state or the outside world refuses (a level
 *   that does not fit the stored ladder, a badge that does not exist, a
 *   listing expiry the clock has passed, a webhook host that does not
 *   resolve), which no schema can state. A schema-valid request answered
 *   400 is still a finding.
 * - positive_data_acceptance also takes 400 for POST /api/v1/integrations/stripe/events/{integrationId}:
 *   the endpoint Stripe posts to is authenticated by an HMAC of the exact
 *   body (Stripe-Signature) that no schema can state, so a schema-valid
 *   request the fuzzer signs with nothing is the documented 400
 *   STRIPE_SIGNATURE_INVALID (stripe.e2e.spec.ts sends signed ones).
 * - object_level_authorization is off for GET /incentives/marketplace/public/listings/{listingId}:
 *   the one read that crosses apps by design (any published listing of any
 *   app, also expired or sold out, so not always in the public list the
 *   check would find it in).
 * - Every valid webhook `url` the fuzzer sends gets the host of a receiver
 *   of this test (support/schemathesis_hooks.py): an endpoint makes the
 *   webhook service send requests to its URL, and the fuzzer must not make
 *   this machine send traffic anywhere but loopback. The test checks
 *   afterwards that no endpoint points elsewhere.
 * - The API keys of two apps are the identities; the dashboard's console
 *   API (/console/v1) has a run of its own (below), with sessions.
 */
const apiConfig = ({ examples, scenarios }: Budget) => `
[generation]
codec = "utf-8"
max-examples = ${examples}

[phases.stateful]
generation.max-examples = ${scenarios}

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[[operations]]
include-path-regex = "/incentives/marketplace/public/listings/\\\\{listingId\\\\}$"
checks.object_level_authorization.enabled = false

[[operations]]
include-path-regex = "/integrations/stripe/events/\\\\{integrationId\\\\}$"
checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "404", "409", "429", "5xx"]
`;

/** The admin API on a gateway of its own: its token can revoke any app's keys, and the fuzzer learns other apps' ids (the public marketplace shows them). */
const adminConfig = ({ examples }: Budget) => `
[generation]
codec = "utf-8"
max-examples = ${examples}
`;

/**
 * The console API (/console/v1) on that gateway too: its identities are two
 * operators, each OWNER of an app of their own, who sign in (the auth
 * document's login endpoint) and send their session cookie; the hooks add
 * the CSRF token a browser sends with each change, give a sign-out a
 * session of its own, and keep either from adding the other to its app by
 * address (support/schemathesis_hooks.py). Each must never see
 * the other's app (members, keys, audit log). positive_data_acceptance also
 * takes 403 (an app id the fuzzer makes up is not theirs; creating apps is
 * for instance administrators) and 422 (a wrong current password). The
 * gateway's sign-in limits are raised: the fuzzer's wrong sign-ins all come
 * from one address and must not lock the identities out.
 */
const consoleConfig = ({ examples, scenarios }: Budget) => `
[generation]
codec = "utf-8"
max-examples = ${examples}

[phases.stateful]
generation.max-examples = ${scenarios}

[checks.positive_data_acceptance]
expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]
`;

describe('the OpenAPI document is the contract (Schemathesis)', () => {
  const run = runName('fuzz');
  const dir = (name: string) => join(root, '.run', 'e2e-fuzz', run, name);
  let receiver: WebhookReceiver;
  let app: TestApp;
  let peer: TestApp;
  let adminStack: ProcessStack | undefined;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Apps of its own, so nothing it creates or changes is another test's.
    app = await createTestApp('contract fuzz');
    peer = await createTestApp('contract fuzz peer');
    adminStack = ownStack('fuzzadm', {
      apps: ['gateway'],
      appEnv: { gateway: { LOGIN_FREE_FAILURES_PER_ADDRESS: '1000000', LOGIN_FREE_FAILURES_PER_ACCOUNT_ADDRESS: '1000000', LOGIN_FREE_FAILURES_PER_ACCOUNT: '1000000' } },
    });
    await adminStack.start();
  }, 120_000);

  /**
   * Two operators, each OWNER of an app of their own, made for one console
   * run: the admin API's fuzzing on the same gateway resets the passwords
   * of the operators it finds.
   */
  async function consoleIdentities(): Promise<TestOperator[]> {
    const admin = new ApiClient(`${adminStack!.gatewayUrl}/admin/v1`, adminStack!.options.adminToken);
    const operators: TestOperator[] = [];
    for (const name of ['console fuzz', 'console fuzz peer']) {
      const appId = (await admin.post('/apps', { name })).body.app.id as string;
      const operator = await createOperator({ admin });
      expect((await admin.put(`/apps/${appId}/members/${operator.id}`, { role: 'OWNER' })).status).toBe(200);
      operators.push(operator);
    }
    return operators;
  }

  afterAll(async () => {
    await receiver?.close();
    await removeOwnStack(adminStack);
  });

  /** Every endpoint the fuzz app registered points at the receiver: none made the webhook service call anything else. */
  async function expectOnlyLoopbackEndpoints(): Promise<void> {
    for (let page = 1; ; page += 1) {
      const res = await app.api.get(`/webhooks?limit=100&page=${page}`);
      expect(res.status).toBe(200);
      for (const webhook of res.body.webhooks as Array<{ url: string }>) expect([webhook.url, new URL(webhook.url).host]).toEqual([webhook.url, new URL(receiver.url('/')).host]);
      if (page >= res.body.pagination.totalPages) return;
    }
  }

  for (const [which, seed, budget] of [
    ['a fixed', FIXED_SEED, FIXED_BUDGET],
    ["this run's", RUN_SEED, RUN_BUDGET],
  ] as const) {
    it(`the public API: no finding with ${which} seed (${seed})`, async () => {
      process.stdout.write(`[contract fuzz] public API, seed ${seed}, ${budget.examples} examples and ${budget.scenarios} scenarios (replay: FUZZ_SEED=${seed})\n`);
      const schemaUrl = `${e2eStack().gatewayUrl}/api/v1/openapi.json`;
      const document = (await (await fetch(schemaUrl)).json()) as {
        components: { schemas: Record<string, { properties: Record<string, { pattern: string; maxLength: number }> }> };
      };
      const url = document.components.schemas.CreateWebhookRequest.properties.url;
      await runSchemathesis({
        dir: dir(`api-${seed}`),
        schemaUrl,
        seed,
        config: apiConfig(budget),
        hooks: {
          RIS_FUZZ_WEBHOOK_AUTHORITY: new URL(receiver.url('/')).host,
          RIS_FUZZ_WEBHOOK_URL_PATTERN: url.pattern,
          RIS_FUZZ_WEBHOOK_URL_MAX_LENGTH: String(url.maxLength),
        },
        identities: [
          { name: 'app', token: app.apiKey },
          { name: 'peer', token: peer.apiKey },
        ],
        peers: ['app', 'peer'],
        // FUZZ_PATHS=<regex>: only those paths, while working on them (with -t 'public API'); CI runs them all.
        args: ['--exclude-path-regex', '^/(admin|console)/', ...(process.env.FUZZ_PATHS ? ['--include-path-regex', process.env.FUZZ_PATHS] : [])],
      });
      await expectOnlyLoopbackEndpoints();
    }, 15 * 60_000);

    it(`the admin API: no finding with ${which} seed (${seed})`, async () => {
      await runSchemathesis({
        dir: dir(`admin-${seed}`),
        schemaUrl: `${adminStack!.gatewayUrl}/api/v1/openapi.json`,
        seed,
        config: adminConfig(budget),
        identities: [{ name: 'admin', token: adminStack!.options.adminToken }],
        args: ['--include-path-regex', '^/admin/'],
      });
    }, 5 * 60_000);

    it(`the console API: no finding with ${which} seed (${seed})`, async () => {
      const operators = await consoleIdentities();
      await runSchemathesis({
        dir: dir(`console-${seed}`),
        schemaUrl: `${adminStack!.gatewayUrl}/api/v1/openapi.json`,
        seed,
        config: consoleConfig(budget),
        hooks: {
          RIS_FUZZ_CONSOLE_URL: `${adminStack!.gatewayUrl}/console/v1`,
          RIS_FUZZ_CONSOLE_LOGINS: JSON.stringify(Object.fromEntries(operators.map((o) => [o.email, o.password]))),
        },
        identities: operators.map((o, i) => ({ name: i === 0 ? 'owner' : 'peer', signIn: { email: o.email, password: o.password } })),
        peers: ['owner', 'peer'],
        args: ['--include-path-regex', '^/console/'],
      });
    }, 5 * 60_000);
  }
});
