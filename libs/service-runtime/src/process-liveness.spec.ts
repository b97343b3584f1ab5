import { testDatabase } from '@ris/testing';
import { ProcessLiveness } from './process-liveness';

describe('ProcessLiveness (real database)', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  beforeAll(async () => {
    db = await testDatabase('liveness');
  });
  afterAll(() => db.drop());

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const options = { beatMs: 100, staleMs: 600 };

  it('sees a beating process alive, one that stopped beating dead after staleMs, and one that stopped at once', async () => {
    const watcher = new ProcessLiveness(db, options);
    const killed = new ProcessLiveness(db, options);
    const stopped = new ProcessLiveness(db, options);
    await Promise.all([watcher.start(), killed.start(), stopped.start()]);
    await sleep(100);
    expect(await watcher.isAlive(killed.instanceId)).toBe(true);
    expect(await watcher.isAlive(stopped.instanceId)).toBe(true);

    // A SIGKILL: the beats stop, the document stays.
    clearInterval((killed as unknown as { timer: NodeJS.Timeout }).timer);
    await stopped.stop();
    await sleep(100);
    expect(await watcher.isAlive(stopped.instanceId)).toBe(false);
    expect(await watcher.isAlive(killed.instanceId)).toBe(true);
    await sleep(700);
    expect(await watcher.isAlive(killed.instanceId)).toBe(false);
    await watcher.stop();
  });

  it('counts itself alive, and unknown or missing ids dead', async () => {
    const self = new ProcessLiveness(db, options);
    await self.start();
    expect(await self.isAlive(self.instanceId)).toBe(true);
    expect(await self.isAlive('proc_unknown')).toBe(false);
    expect(await self.isAlive(null)).toBe(false);
    await self.stop();
  });
});
