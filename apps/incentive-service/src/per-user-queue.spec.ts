import { PerUserQueue } from './per-user-queue';

describe('per-user queue', () => {
  it('runs work of one key in order, one at a time, and other keys alongside', async () => {
    const queue = new PerUserQueue();
    const log: string[] = [];
    const step = (key: string, n: number, ms: number) =>
      queue.run(key, async () => {
        log.push(`${key}${n}+`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${key}${n}-`);
        return n;
      });
    const results = await Promise.all([step('a', 1, 20), step('a', 2, 1), step('b', 1, 5), step('a', 3, 1)]);
    expect(results).toEqual([1, 2, 1, 3]);
    const a = log.filter((l) => l.startsWith('a'));
    expect(a).toEqual(['a1+', 'a1-', 'a2+', 'a2-', 'a3+', 'a3-']);
    expect(log.indexOf('b1+')).toBeLessThan(log.indexOf('a1-'));
  });

  it('keeps going after a failure', async () => {
    const queue = new PerUserQueue();
    await expect(queue.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run('k', async () => 'next')).toBe('next');
  });
});
