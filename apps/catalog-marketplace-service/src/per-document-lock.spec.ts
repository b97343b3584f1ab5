import { PerDocumentLock } from './per-document-lock';

describe('PerDocumentLock', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('runs work for one key one at a time, in arrival order', async () => {
    const lock = new PerDocumentLock();
    const log: string[] = [];
    let inside = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        lock.run('doc', async () => {
          inside += 1;
          most = Math.max(most, inside);
          log.push(`start ${i}`);
          await tick();
          log.push(`end ${i}`);
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(1);
    expect(log.filter((l) => l.startsWith('start'))).toEqual(Array.from({ length: 20 }, (_, i) => `start ${i}`));
  });

  it('runs different keys side by side', async () => {
    const lock = new PerDocumentLock();
    let inside = 0;
    let most = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((key) =>
        lock.run(key, async () => {
          inside += 1;
          most = Math.max(most, inside);
          await tick();
          inside -= 1;
        }),
      ),
    );
    expect(most).toBe(3);
  });

  it('passes results and failures through, and keeps going after a failure', async () => {
    const lock = new PerDocumentLock();
    await expect(lock.run('doc', async () => 42)).resolves.toBe(42);
    await expect(lock.run('doc', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('doc', async () => 'after')).resolves.toBe('after');
  });
});
