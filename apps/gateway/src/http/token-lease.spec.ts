import { TokenLease, type Admission, type Grant } from './token-lease';

/** A shared bucket that never refills: what the Redis script does with a rate of 0 between calls. */
function fixedBucket(tokens: number) {
  const calls: number[] = [];
  let left = tokens;
  const take = async (_key: string, want: number): Promise<Grant> => {
    calls.push(want);
    const granted = Math.min(want, left);
    left -= granted;
    return { granted, retryMs: granted < want ? 250 : 0, remaining: left };
  };
  return { take, calls, left: () => left };
}

const settle = (admissions: Array<Admission | Promise<Admission>>) => Promise.all(admissions);
const allowed = (admissions: Admission[]) => admissions.filter((a) => a.allowed).length;

describe('TokenLease', () => {
  it('asks the shared bucket once for the requests of one turn, plus the lease', async () => {
    const bucket = fixedBucket(100);
    const lease = new TokenLease(bucket.take, { lease: 5, leaseMs: 1000 });
    const first = await settle(Array.from({ length: 10 }, () => lease.admit('app')));
    expect(allowed(first)).toBe(10);
    expect(bucket.calls).toEqual([15]);
    // The five leased tokens are spent here, without asking.
    const next = Array.from({ length: 5 }, () => lease.admit('app'));
    expect(next.every((a) => !(a instanceof Promise) && a.allowed)).toBe(true);
    expect(bucket.calls).toEqual([15]);
    await settle([lease.admit('app')]);
    expect(bucket.calls).toEqual([15, 6]);
  });

  it('admits no more than the shared bucket holds, and tells the rest when to retry', async () => {
    const bucket = fixedBucket(7);
    const lease = new TokenLease(bucket.take, { lease: 0, leaseMs: 1000 });
    const admissions = await settle(Array.from({ length: 12 }, () => lease.admit('app')));
    expect(allowed(admissions)).toBe(7);
    expect(admissions.filter((a) => !a.allowed)).toEqual(Array.from({ length: 5 }, () => ({ allowed: false, retryMs: 250 })));
    expect(bucket.left()).toBe(0);
  });

  it('lets leased tokens lapse after leaseMs, so a quiet replica does not keep them', async () => {
    let now = 0;
    const bucket = fixedBucket(100);
    const lease = new TokenLease(bucket.take, { lease: 3, leaseMs: 1000, now: () => now });
    await settle([lease.admit('app')]);
    expect(bucket.calls).toEqual([4]);
    now = 1500;
    const later = lease.admit('app');
    expect(later).toBeInstanceOf(Promise);
    await later;
    expect(bucket.calls).toEqual([4, 4]);
  });

  it('keeps keys apart', async () => {
    const takes: string[] = [];
    const lease = new TokenLease(
      async (key, want) => {
        takes.push(key);
        return { granted: key === 'a' ? want : 0, retryMs: 100, remaining: 0 };
      },
      { lease: 0, leaseMs: 1000 },
    );
    const [a, b] = await settle([lease.admit('a'), lease.admit('b')]);
    expect(a.allowed).toBe(true);
    expect(b).toEqual({ allowed: false, retryMs: 100 });
    expect(takes.sort()).toEqual(['a', 'b']);
  });

  it('asks again for requests that arrived while a grant was on its way and found it spent', async () => {
    const asked: number[] = [];
    const answers: Array<(grant: Grant) => void> = [];
    const lease = new TokenLease(
      (_key, want) => {
        asked.push(want);
        return new Promise<Grant>((resolve) => answers.push(resolve));
      },
      { lease: 0, leaseMs: 1000 },
    );
    const first = lease.admit('app');
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual([1]);
    // Arrives while the grant for the first is on its way.
    const second = lease.admit('app');
    answers[0]({ granted: 1, retryMs: 0, remaining: 50 });
    await expect(first).resolves.toEqual({ allowed: true, remaining: 50 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked).toEqual([1, 1]);
    answers[1]({ granted: 1, retryMs: 0, remaining: 49 });
    await expect(second).resolves.toEqual({ allowed: true, remaining: 49 });
  });

  it('refuses requests that arrived while a grant was on its way when that grant emptied the bucket', async () => {
    const answers: Array<(grant: Grant) => void> = [];
    const lease = new TokenLease((_key, _want) => new Promise<Grant>((resolve) => answers.push(resolve)), { lease: 0, leaseMs: 1000 });
    const first = lease.admit('app');
    await new Promise((resolve) => setImmediate(resolve));
    const second = lease.admit('app');
    answers[0]({ granted: 0, retryMs: 400, remaining: 0 });
    expect(await settle([first, second])).toEqual([
      { allowed: false, retryMs: 400 },
      { allowed: false, retryMs: 400 },
    ]);
    expect(answers).toHaveLength(1);
  });

  it('fails the waiting requests when the shared bucket cannot be asked, and asks afresh next time', async () => {
    let down = true;
    const lease = new TokenLease(
      async (_key, want) => {
        if (down) throw new Error('redis down');
        return { granted: want, retryMs: 0, remaining: 10 };
      },
      { lease: 0, leaseMs: 1000 },
    );
    await expect(lease.admit('app')).rejects.toThrow('redis down');
    down = false;
    await expect(lease.admit('app')).resolves.toEqual({ allowed: true, remaining: 10 });
  });
});
