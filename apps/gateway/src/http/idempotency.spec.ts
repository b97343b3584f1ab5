import { EnvelopeCipher, newKeyringEntry, parseKeyring } from '@ris/secrets';
import { secretTraces, testDatabase, uniqueName } from '@ris/testing';
import { IdempotencyStore } from './idempotency';

describe('IdempotencyStore request hashing', () => {
  it('treats the same body with keys in another order as the same request', () => {
    const a = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', meta: { a: 1, b: [1, 2] } });
    const b = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { meta: { b: [1, 2], a: 1 }, referralCode: 'X' });
    expect(a).toBe(b);
  });

  it('tells apart other bodies and other endpoints', () => {
    const base = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X' });
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'Y' })).not.toBe(base);
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/referrals', { referralCode: 'X' })).not.toBe(base);
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', b: [2, 1] })).not.toBe(
      IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', b: [1, 2] }),
    );
  });

  it('accepts printable keys up to 255 characters only', () => {
    expect(() => IdempotencyStore.validateKey('order-123_ABC')).not.toThrow();
    expect(() => IdempotencyStore.validateKey('')).toThrow();
    expect(() => IdempotencyStore.validateKey('x'.repeat(256))).toThrow();
    expect(() => IdempotencyStore.validateKey('with space')).toThrow();
  });
});

// Kept responses against real FerretDB/MongoDB: encrypted at rest, replayed in clear.
describe('IdempotencyStore kept responses', () => {
  const cipher = new EnvelopeCipher(parseKeyring(newKeyringEntry('gw1')));
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let store: IdempotencyStore;
  const raw = (appId: string, key: string) => db.collection('idempotency_keys').findOne({ _id: `${appId}:${key}` as never });

  beforeAll(async () => {
    db = await testDatabase('gateway_idempotency');
    store = new IdempotencyStore(db, cipher);
    await Promise.all(Object.values(db.models).map((model) => model.init()));
  });

  afterAll(async () => {
    await db.drop();
  });

  async function keep(appId: string, key: string, body: unknown): Promise<void> {
    const started = await store.begin(appId, key, 'hash-1');
    if (started.kind !== 'proceed') throw new Error('expected a first run');
    await started.complete(201, body);
  }

  it('stores a response carrying a secret only encrypted, and replays it in clear', async () => {
    const appId = uniqueName('app');
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = { webhook: { id: 'whe_1' }, secret };
    await keep(appId, 'create-webhook', body);
    const stored = await raw(appId, 'create-webhook');
    expect(stored).toMatchObject({ state: 'completed', status: 201, sealedBody: { keyId: 'gw1' } });
    expect(stored!.body).toBeUndefined();
    expect(secretTraces(stored, secret)).toEqual([]);
    expect(await store.begin(appId, 'create-webhook', 'hash-1')).toEqual({ kind: 'replay', status: 201, body });
    // A null body comes back as null, as before.
    await keep(appId, 'empty', null);
    expect(await store.begin(appId, 'empty', 'hash-1')).toEqual({ kind: 'replay', status: 201, body: null });
  });

  it('does not replay a kept response copied into another app\'s record', async () => {
    const [appId, other] = [uniqueName('app'), uniqueName('app')];
    await keep(appId, 'k', { secret: 'whsec_a' });
    await keep(other, 'k', { secret: 'whsec_b' });
    const stolen = (await raw(appId, 'k'))!.sealedBody;
    await db.collection('idempotency_keys').updateOne({ _id: `${other}:k` as never }, { $set: { sealedBody: stolen } });
    await expect(store.begin(other, 'k', 'hash-1')).rejects.toThrow(/another record/);
  });

  it('replays a response kept in clear before encryption at rest', async () => {
    const appId = uniqueName('app');
    await db.collection('idempotency_keys').insertOne({
      _id: `${appId}:old` as never,
      appId,
      key: 'old',
      requestHash: 'hash-1',
      state: 'completed',
      status: 200,
      body: '{"ok":true}',
      createdAt: new Date(),
    });
    expect(await store.begin(appId, 'old', 'hash-1')).toEqual({ kind: 'replay', status: 200, body: { ok: true } });
  });
});
