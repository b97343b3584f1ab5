import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import mongoose, { type Connection } from 'mongoose';
import { Webhook } from 'standardwebhooks';
import { type ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, createTestApp, e2eStack, secretTraces, type ReceivedWebhook, type TestApp } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

const root = join(__dirname, '..', '..', '..');
const run = promisify(execFile);

/** Verifies with the public standardwebhooks library (not our code). */
const verifies = (secret: string, request: ReceivedWebhook) => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

/** Every document of every collection of a database, read with the plain driver. */
async function everyDocument(db: Connection): Promise<unknown[]> {
  const collections = await db.db!.listCollections().toArray();
  const documents = await Promise.all(collections.map((c) => db.db!.collection(c.name).find({}).toArray()));
  return documents.flat();
}

/** Where any of `secrets` shows, in any form, in any field of any document of these databases. */
async function tracesIn(dbs: Connection[], secrets: string[]): Promise<string[]> {
  const documents = (await Promise.all(dbs.map(everyDocument))).flat();
  expect(documents.length).toBeGreaterThan(0);
  return secrets.flatMap((secret) => secretTraces(documents, secret));
}

const keyEntry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

// Webhook signing secrets at rest: the databases behind the API never hold
// one in a readable form, deliveries are still signed with the secret the
// caller got, and the master key can be rotated without downtime.
describe('webhook secrets at rest', () => {
  let receiver: WebhookReceiver;
  let path = 0;
  const nextPath = (name: string) => `/${name}-${(path += 1)}`;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver.close();
  });

  async function testDelivery(api: ApiClient, webhookId: string, urlPath: string): Promise<ReceivedWebhook> {
    const before = receiver.received(urlPath).length;
    expect((await api.post(`/webhooks/${webhookId}/test`)).status).toBe(202);
    const requests = await receiver.waitFor((r) => r.path === urlPath, before + 1);
    return requests[before];
  }

  describe('on the shared stack', () => {
    let app: TestApp;
    let webhookDb: Connection;
    let gatewayDb: Connection;

    beforeAll(async () => {
      const stack = e2eStack();
      app = await createTestApp('webhook secrets');
      [webhookDb, gatewayDb] = await Promise.all(
        ['webhook', 'gateway'].map((service) => mongoose.createConnection(stack.mongodbUrl, { dbName: `${stack.dbPrefix}${service}` }).asPromise()),
      );
    });

    afterAll(async () => {
      await Promise.all([webhookDb?.close(), gatewayDb?.close()]);
    });

    it('stores no secret in clear, signs with it, and rotates it', async () => {
      const urlPath = nextPath('at-rest');
      const created = await app.api.post('/webhooks', { url: receiver.url(urlPath) }, { 'idempotency-key': `create-${urlPath}` });
      expect(created.status).toBe(201);
      const { webhook, secret } = created.body as { webhook: { id: string }; secret: string };
      // The replay of an Idempotency-Key gives the secret again: the gateway keeps it, encrypted.
      const replayed = await app.api.post('/webhooks', { url: receiver.url(urlPath) }, { 'idempotency-key': `create-${urlPath}` });
      expect(replayed.headers.get('idempotent-replayed')).toBe('true');
      expect(replayed.body.secret).toBe(secret);

      const stored = await webhookDb.db!.collection('webhook_endpoints').findOne({ _id: webhook.id as never });
      expect(stored?.secret).toMatchObject({ v: 1, keyId: 'run1' });
      expect(await tracesIn([webhookDb, gatewayDb], [secret])).toEqual([]);

      const delivered = await testDelivery(app.api, webhook.id, urlPath);
      expect(verifies(secret, delivered)).toBe(true);

      const rotated = await app.api.post(`/webhooks/${webhook.id}/secret/rotate`, undefined, { 'idempotency-key': `rotate-${urlPath}` });
      expect(rotated.status).toBe(200);
      const fresh = rotated.body.secret as string;
      expect(fresh).not.toBe(secret);
      const afterRotation = await testDelivery(app.api, webhook.id, urlPath);
      // Both sign for 24 h: one signature each.
      expect(afterRotation.headers['webhook-signature'].split(' ')).toHaveLength(2);
      expect(verifies(fresh, afterRotation)).toBe(true);
      expect(verifies(secret, afterRotation)).toBe(true);
      expect(await tracesIn([webhookDb, gatewayDb], [secret, fresh])).toEqual([]);
    });
  });

  // A stack of its own: the webhook service is restarted with other master keys.
  describe('master-key rotation', () => {
    const [K1, K2] = [keyEntry('k1'), keyEntry('k2')];
    let stack: ProcessStack;
    let api: ApiClient;
    let webhookDb: Connection;

    /** Restarts the webhook service with these SECRETS_KEYS (the gateway keeps its own). */
    async function restartWebhookService(secretsKeys: string): Promise<void> {
      await stack.stopApp('webhook-service');
      stack.options.appEnv = { ...stack.options.appEnv, 'webhook-service': { SECRETS_KEYS: secretsKeys } };
      await stack.startApp('webhook-service');
    }

    /** The rewrap command, as an operator runs it. */
    async function rewrap(secretsKeys: string, ...args: string[]) {
      const env = { PATH: process.env.PATH ?? '', MONGODB_URL: e2eStack().mongodbUrl, MONGODB_DB: `${stack.options.dbPrefix}webhook`, SECRETS_KEYS: secretsKeys };
      const done = await run(process.execPath, [join(root, 'tools', 'webhook-rewrap-secrets.mjs'), ...args], { env }).then(
        (out) => ({ code: 0, ...out }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      return { code: done.code, report: JSON.parse(done.stdout), summary: done.stderr };
    }

    beforeAll(async () => {
      stack = ownStack('wk', {
        apps: ['webhook-service', 'gateway'],
        env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
        appEnv: { 'webhook-service': { SECRETS_KEYS: K1 } },
      });
      await stack.start();
      const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'key rotation' });
      api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
      webhookDb = await mongoose.createConnection(e2eStack().mongodbUrl, { dbName: `${stack.options.dbPrefix}webhook` }).asPromise();
    }, 60_000);

    afterAll(async () => {
      await webhookDb?.close();
      await removeOwnStack(stack);
    });

    it('keeps old endpoints delivering under a new key, and the rewrap command moves every secret to it', async () => {
      // Under k1: two endpoints, one of them rotated (two secrets).
      const paths = [nextPath('k1-a'), nextPath('k1-b'), nextPath('legacy')];
      const a = (await api.post('/webhooks', { url: receiver.url(paths[0]) })).body;
      const b = (await api.post('/webhooks', { url: receiver.url(paths[1]) })).body;
      const aRotated = (await api.post(`/webhooks/${a.webhook.id}/secret/rotate`)).body.secret as string;
      // And an endpoint from a database older than encryption at rest: its secret in clear.
      const c = (await api.post('/webhooks', { url: receiver.url(paths[2]) })).body;
      const legacySecret = `whsec_${randomBytes(32).toString('base64')}`;
      await webhookDb.db!.collection('webhook_endpoints').updateOne({ _id: c.webhook.id as never }, { $set: { secret: legacySecret } });

      // Restarted with k2 current and k1 still held: every endpoint keeps signing with what its owner holds.
      await restartWebhookService(`${K2},${K1}`);
      const viaA = await testDelivery(api, a.webhook.id, paths[0]);
      expect(verifies(aRotated, viaA) && verifies(a.secret, viaA)).toBe(true);
      expect(verifies(legacySecret, await testDelivery(api, c.webhook.id, paths[2]))).toBe(true);

      // Delivering moved a's and c's secrets; b's are still under k1, so k1 cannot go yet.
      const checked = await rewrap(`${K2},${K1}`, '--check');
      expect(checked.code).toBe(1);
      expect(checked.report).toMatchObject({ currentKeyId: 'k2', endpoints: 3, notCurrent: 1, moved: 0, secretsByKey: { k2: 3, k1: 1 } });
      expect(checked.summary).toContain('1 secrets left under other keys');

      const moved = await rewrap(`${K2},${K1}`);
      expect(moved.code).toBe(0);
      expect(moved.report).toMatchObject({ notCurrent: 1, moved: 1, failed: [], secretsByKey: { k2: 4 } });
      expect(moved.summary).toContain('keys other than the current one can be removed');

      // k1 removed: everything still delivers, signed as before.
      await restartWebhookService(K2);
      const [afterA, afterB, afterC] = [
        await testDelivery(api, a.webhook.id, paths[0]),
        await testDelivery(api, b.webhook.id, paths[1]),
        await testDelivery(api, c.webhook.id, paths[2]),
      ];
      expect(verifies(aRotated, afterA) && verifies(a.secret, afterA)).toBe(true);
      expect(verifies(b.secret, afterB)).toBe(true);
      expect(verifies(legacySecret, afterC)).toBe(true);
      expect(await tracesIn([webhookDb], [a.secret, aRotated, b.secret, legacySecret])).toEqual([]);
    }, 90_000);

    it('refuses to start without SECRETS_KEYS, naming the setting', async () => {
      await stack.stopApp('webhook-service');
      stack.options.appEnv = { ...stack.options.appEnv, 'webhook-service': { SECRETS_KEYS: '' } };
      await expect(stack.startApp('webhook-service')).rejects.toThrow(/webhook-service exited \((exit )?code 2/);
      const log = readFileSync(join(stack.options.logDir, 'webhook-service.log'), 'utf8');
      expect(log).toContain('SECRETS_KEYS: required');
    });
  });
});
