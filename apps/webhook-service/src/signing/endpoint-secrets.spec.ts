import { EnvelopeCipher, SecretDecryptionError, UnknownKeyError, newKeyringEntry, parseKeyring, type SealedSecret } from '@ris/secrets';
import { secretTraces, uniqueName } from '@ris/testing';
import type { EndpointDoc } from '../endpoints/endpoint.model';
import type { EndpointRepository } from '../endpoints/endpoint.repository';
import { SECRET_ROTATION_GRACE_MS } from './endpoint-secrets';
import { Endpoints } from '../endpoints/endpoints';
import { rewrapSecrets, secretsNotCurrent } from './secrets-rewrap';
import { webhookStores, type WebhookStores } from '../testing/webhook-stores';
import { generateSecret } from './signing';

// Signing secrets at rest, against real FerretDB/MongoDB: what the database
// holds (read with the plain driver), what signs, and the moves to the
// current master key (lazy, rotation, the rewrap command's pass).
describe('endpoint secrets at rest', () => {
  const [K1, K2, K3] = ['k1', 'k2', 'k3'].map((id) => newKeyringEntry(id));
  const cipher = (...entries: string[]) => new EnvelopeCipher(parseKeyring(entries.join(',')));
  let db: WebhookStores['db'];
  let repository: EndpointRepository;

  const endpointsUnder = (...entries: string[]) => new Endpoints(repository, { allowPrivateTargets: true }, cipher(...entries));
  /** The stored document as the plain driver sees it (no mongoose). */
  const raw = (id: string) => db.collection('webhook_endpoints').findOne({ _id: id as never }) as Promise<EndpointDoc | null>;
  const allRaw = () => db.collection('webhook_endpoints').find({}).toArray();

  beforeAll(async () => {
    ({ db, endpoints: repository } = await webhookStores('webhook_secrets'));
  });

  afterAll(async () => {
    await db.drop();
  });

  it('stores a new secret sealed under the current key and bound to its endpoint, never in clear', async () => {
    const endpoints = endpointsUnder(K1);
    const appId = uniqueName('app');
    const { endpoint, secret } = await endpoints.create(appId, { url: 'http://127.0.0.1:9/hook', events: [] });
    const stored = (await raw(endpoint._id))!;
    expect(secretTraces(stored, secret)).toEqual([]);
    expect(stored.secret).toMatchObject({ v: 1, keyId: 'k1' });
    expect(endpoints.secrets.active(stored)).toEqual([secret]);
    expect(endpoints.secrets.isCurrent(stored)).toBe(true);

    // Copied into another endpoint (of this app or another), it does not open there.
    const other = await endpoints.create(uniqueName('app'), { url: 'http://127.0.0.1:9/other', events: [] });
    await db.collection('webhook_endpoints').updateOne({ _id: other.endpoint._id as never }, { $set: { secret: stored.secret } });
    const copied = (await raw(other.endpoint._id))!;
    expect(() => endpoints.secrets.active(copied)).toThrow(SecretDecryptionError);
    expect(() => endpoints.secrets.active(copied)).toThrow(/another record/);
  });

  it('rotates an endpoint secret: both sign for the grace period, neither is stored in clear', async () => {
    const endpoints = endpointsUnder(K1);
    const appId = uniqueName('app');
    const { endpoint, secret: first } = await endpoints.create(appId, { url: 'http://127.0.0.1:9/rotate', events: [] });
    const { secret: second } = await endpoints.rotateSecret(appId, endpoint._id);
    const stored = (await raw(endpoint._id))!;
    expect(endpoints.secrets.active(stored)).toEqual([second, first]);
    expect([...secretTraces(stored, first), ...secretTraces(stored, second)]).toEqual([]);
    // After the grace period only the new one signs.
    expect(endpoints.secrets.active(stored, new Date(Date.now() + SECRET_ROTATION_GRACE_MS + 1000))).toEqual([second]);
  });

  it('signs with the plain secrets of a database from before encryption at rest, and seals them on the first move', async () => {
    const endpoints = endpointsUnder(K1);
    const appId = uniqueName('app');
    const [current, previous, expired] = [generateSecret(), generateSecret(), generateSecret()];
    const now = Date.now();
    const legacy = {
      _id: uniqueName('whe'),
      appId,
      url: 'http://127.0.0.1:9/legacy',
      events: [],
      description: null,
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      disabledEventPending: false,
      failingSince: null,
      secret: current,
      previousSecrets: [
        { secret: previous, expiresAt: new Date(now + 3_600_000) },
        { secret: expired, expiresAt: new Date(now - 1000) },
      ],
      createdAt: new Date(now),
      updatedAt: new Date(now),
    };
    await db.collection('webhook_endpoints').insertOne(legacy as never);
    const before = (await endpoints.get(appId, legacy._id))!;
    expect(endpoints.secrets.active(before)).toEqual([current, previous]);
    expect(endpoints.secrets.isCurrent(before)).toBe(false);

    expect(await endpoints.secrets.moveToCurrentKey(before)).toBe('moved');
    const after = (await raw(legacy._id))!;
    for (const secret of [current, previous, expired]) expect(secretTraces(after, secret)).toEqual([]);
    expect(endpoints.secrets.active(after)).toEqual([current, previous]);
    expect(endpoints.secrets.isCurrent(after)).toBe(true);
    // The expired one is gone; nothing the API shows changed.
    expect(after.previousSecrets).toHaveLength(1);
    expect(after.updatedAt).toEqual(legacy.updatedAt);
    expect(await endpoints.secrets.moveToCurrentKey(after)).toBe('current');
    // A stale read (the plain secret is gone) moves nothing.
    expect(await endpoints.secrets.moveToCurrentKey(before)).toBe('changed');
  });

  it('keeps every endpoint signing through a master-key rotation, and the rewrap pass leaves nothing under the old key', async () => {
    const appId = uniqueName('app');
    const old = endpointsUnder(K1);
    const created = await Promise.all([1, 2, 3].map((n) => old.create(appId, { url: `http://127.0.0.1:9/k${n}`, events: [] })));
    const rotated = await old.rotateSecret(appId, created[0].endpoint._id);

    // The service restarted with a new current key, the old one still held.
    const both = endpointsUnder(K2, K1);
    const stored = async (n: number) => (await raw(created[n].endpoint._id))!;
    expect(both.secrets.active(await stored(0))).toEqual([rotated.secret, created[0].secret]);
    expect(both.secrets.active(await stored(1))).toEqual([created[1].secret]);

    const check = await rewrapSecrets(repository, cipher(K2, K1), { appId, fix: false });
    expect(check).toMatchObject({ currentKeyId: 'k2', endpoints: 3, notCurrent: 3, moved: 0, secretsByKey: { k1: 4 } });
    expect(secretsNotCurrent(check)).toBe(4);

    const report = await rewrapSecrets(repository, cipher(K2, K1), { appId, fix: true });
    expect(report).toMatchObject({ endpoints: 3, notCurrent: 3, plaintext: 0, moved: 3, failed: [], secretsByKey: { k2: 4 } });
    expect(secretsNotCurrent(report)).toBe(0);

    // The old key removed: everything still opens, and still signs with the same secrets.
    const onlyNew = endpointsUnder(K2);
    expect(onlyNew.secrets.active(await stored(0))).toEqual([rotated.secret, created[0].secret]);
    expect(onlyNew.secrets.active(await stored(2))).toEqual([created[2].secret]);
    // Removed before the pass, the old key would have been missed with a clear error.
    await old.create(appId, { url: 'http://127.0.0.1:9/late', events: [] });
    const late = (await old.list(appId, { page: 1, limit: 10 })).items.find((e) => e.url.endsWith('/late'))!;
    expect(() => onlyNew.secrets.active(late)).toThrow(UnknownKeyError);
    expect(() => onlyNew.secrets.active(late)).toThrow(/master key "k1", which SECRETS_KEYS does not hold/);
  });

  it('reports the endpoints it cannot move (a key no longer held) and fails the pass', async () => {
    const appId = uniqueName('app');
    const { endpoint } = await endpointsUnder(K3).create(appId, { url: 'http://127.0.0.1:9/k3', events: [] });
    const report = await rewrapSecrets(repository, cipher(K2, K1), { appId, fix: true });
    expect(report.failed).toEqual([{ appId, webhookId: endpoint._id, error: expect.stringContaining('master key "k3"') }]);
    expect(report.secretsByKey).toEqual({ k3: 1 });
    expect(secretsNotCurrent(report)).toBe(1);
  });

  it('never loses a rotation to a move running beside it', async () => {
    const appId = uniqueName('app');
    const endpoints = endpointsUnder(K2, K1);
    for (let round = 0; round < 8; round += 1) {
      const { endpoint } = await endpointsUnder(K1).create(appId, { url: `http://127.0.0.1:9/race${round}`, events: [] });
      const stale = (await raw(endpoint._id))!;
      const [rotation] = await Promise.all([endpoints.rotateSecret(appId, endpoint._id), endpoints.secrets.moveToCurrentKey(stale)]);
      const after = (await raw(endpoint._id))!;
      expect(endpoints.secrets.active(after)[0]).toBe(rotation.secret);
      expect(endpoints.secrets.isCurrent(after)).toBe(true);
    }
  });

  it('leaves no secret in clear in the collection, whichever way it was written', async () => {
    const docs = await allRaw();
    expect(docs.length).toBeGreaterThan(5);
    for (const doc of docs) {
      const stored = [doc.secret, ...(doc.previousSecrets as Array<{ secret: unknown }>).map((p) => p.secret)];
      for (const secret of stored) expect(typeof secret === 'string' ? 'plain text' : (secret as SealedSecret).v).toBe(1);
    }
  });
});
