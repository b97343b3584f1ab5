import { PeriodicTask } from './periodic-task';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PeriodicTask', () => {
  it('runs at start when asked, then every interval, never two passes at once', async () => {
    let runs = 0;
    let open = 0;
    let peak = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        open += 1;
        peak = Math.max(peak, open);
        await pause(30); // longer than the interval: the next pass must wait for this one
        open -= 1;
      },
      { intervalMs: 5, runAtStart: true, onError: () => undefined },
    );
    task.start();
    expect(runs).toBe(1);
    await pause(150);
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(peak).toBe(1);
  });

  it('waits for the first interval unless told to run at start', async () => {
    let runs = 0;
    const task = new PeriodicTask(async () => void (runs += 1), { intervalMs: 40, onError: () => undefined });
    task.start();
    await pause(10);
    expect(runs).toBe(0);
    await pause(60);
    expect(runs).toBe(1);
    await task.stop();
  });

  it('stop() waits for the pass in progress and no pass follows it', async () => {
    let finished = false;
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        await pause(50);
        finished = true;
      },
      { intervalMs: 1, runAtStart: true, onError: () => undefined },
    );
    task.start();
    await task.stop();
    expect(finished).toBe(true);
    await pause(20);
    expect(runs).toBe(1);
  });

  it('reports a failed pass and keeps running', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('store down');
      },
      { intervalMs: 5, runAtStart: true, onError: (err) => errors.push(err) },
    );
    task.start();
    await pause(40);
    await task.stop();
    expect(errors).toHaveLength(1);
    expect(runs).toBeGreaterThan(1);
  });

  it('started again while a stopped pass is finishing, runs one pass at a time', async () => {
    let open = 0;
    let peak = 0;
    let runs = 0;
    const task = new PeriodicTask(
      async () => {
        runs += 1;
        open += 1;
        peak = Math.max(peak, open);
        await pause(30);
        open -= 1;
      },
      { intervalMs: 5, runAtStart: true, onError: () => undefined },
    );
    task.start();
    void task.stop();
    task.start();
    await pause(120);
    await task.stop();
    expect(peak).toBe(1);
    expect(runs).toBeGreaterThan(1);
  });
});
