import { SerialByKey } from './serial-by-key';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SerialByKey', () => {
  it('runs the calls of one key one after another, in order', async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    let open = 0;
    await Promise.all(
      [30, 10, 0].map((ms, i) =>
        serial.run('doc-1', async () => {
          open += 1;
          expect(open).toBe(1);
          log.push(`start ${i}`);
          await pause(ms);
          log.push(`end ${i}`);
          open -= 1;
        }),
      ),
    );
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs different keys side by side', async () => {
    const serial = new SerialByKey();
    let open = 0;
    let peak = 0;
    await Promise.all(
      ['a', 'b', 'c'].map((key) =>
        serial.run(key, async () => {
          open += 1;
          peak = Math.max(peak, open);
          await pause(10);
          open -= 1;
        }),
      ),
    );
    expect(peak).toBe(3);
  });

  it('goes on after a failed call and returns each call its own result', async () => {
    const serial = new SerialByKey();
    const failed = serial.run('doc-1', async () => {
      throw new Error('write failed');
    });
    const next = serial.run('doc-1', async () => 42);
    await expect(failed).rejects.toThrow('write failed');
    await expect(next).resolves.toBe(42);
  });

  it('holds every key of runAll at once, after the calls before it on each, before the calls after it', async () => {
    const serial = new SerialByKey();
    const log: string[] = [];
    let releaseA!: () => void;
    const a = serial.run('a', () => new Promise<void>((resolve) => (releaseA = () => resolve(log.push('a done') as unknown as void))));
    const all = serial.runAll(['c', 'a', 'b', 'a'], async () => {
      log.push('all');
    });
    const b = serial.run('b', async () => {
      log.push('b');
    });
    await Promise.resolve();
    // b went first: runAll waits for a (held) and so has not reached b yet.
    await b;
    releaseA();
    await Promise.all([a, all]);
    const after = serial.run('c', async () => {
      log.push('c after');
    });
    await after;
    expect(log).toEqual(['b', 'a done', 'all', 'c after']);
  });
});

