import { Redis } from 'ioredis';
import { infraUrl, uniqueName } from '@ris/testing';
import { SessionStore } from './session-store';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ann = { operatorId: 'opr_ann', email: 'ann@example.com', isAdmin: false };

// Against the real Redis, under a key prefix of this file's own.
describe('operator sessions in Redis', () => {
  let redis: Redis;
  let prefix: string;

  beforeAll(() => {
    redis = new Redis(infraUrl('REDIS_URL'));
    prefix = `${uniqueName('sess')}:`;
  });

  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const store = (idleMs = 60_000, maxAgeMs = 600_000) => new SessionStore(redis, prefix, { idleMs, maxAgeMs });

  it('stores a new random id per sign-in under its SHA-256 only, with a CSRF token, and finds it again', async () => {
    const sessions = store();
    const first = await sessions.create(ann);
    const second = await sessions.create(ann);
    expect(first.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.id).not.toBe(first.id);
    expect(second.session.csrfToken).not.toBe(first.session.csrfToken);
    const found = await sessions.touch(first.id);
    expect(found).toMatchObject({ ...ann, csrfToken: first.session.csrfToken, createdAt: first.session.createdAt });
    const keys = await redis.keys(`${prefix}session:*`);
    expect(keys.some((k) => k.includes(first.id))).toBe(false);
    expect(keys).toContain(`${prefix}session:${first.session.hash}`);
  });

  it('knows nothing of an id it did not make, nor of a malformed one', async () => {
    const sessions = store();
    expect(await sessions.touch('A'.repeat(43))).toBeNull();
    expect(await sessions.touch('not a session id')).toBeNull();
    expect(await sessions.touch('')).toBeNull();
  });

  it('ends after the idle time without a request, and each request moves that end on', async () => {
    const sessions = store(1_000);
    const kept = await sessions.create(ann);
    const idle = await sessions.create(ann);
    for (let i = 0; i < 4; i += 1) {
      await pause(400);
      expect(await sessions.touch(kept.id)).not.toBeNull();
    }
    // 1.6 s after sign-in: the one used every 0.4 s lives, the idle one is gone.
    expect(await sessions.touch(idle.id)).toBeNull();
    expect(await sessions.touch(kept.id)).not.toBeNull();
  });

  it('ends at its absolute age however busy', async () => {
    const sessions = store(60_000, 1_200);
    const busy = await sessions.create(ann);
    for (let i = 0; i < 2; i += 1) {
      await pause(400);
      expect(await sessions.touch(busy.id)).not.toBeNull();
    }
    await pause(600);
    expect(await sessions.touch(busy.id)).toBeNull();
    expect(await redis.exists(`${prefix}session:${busy.session.hash}`)).toBe(0);
  });

  it('signs out one session, or every session of an operator but one (a password change) or all (a reset)', async () => {
    const sessions = store();
    const [a, b, c] = [await sessions.create(ann), await sessions.create(ann), await sessions.create(ann)];
    const bob = await sessions.create({ operatorId: 'opr_bob', email: 'bob@example.com', isAdmin: true });
    await sessions.end(a.session);
    expect(await sessions.touch(a.id)).toBeNull();
    expect(await sessions.touch(b.id)).not.toBeNull();
    await sessions.endAllOf('opr_ann', c.session.hash);
    expect(await sessions.touch(b.id)).toBeNull();
    expect(await sessions.touch(c.id)).not.toBeNull();
    await sessions.endAllOf('opr_ann');
    expect(await sessions.touch(c.id)).toBeNull();
    expect(await sessions.touch(bob.id)).toMatchObject({ operatorId: 'opr_bob', isAdmin: true });
  });
});
