import { RestartPolicy } from './restart-policy';

describe('restart policy', () => {
  const policy = () =>
    new RestartPolicy({ initialBackoffMs: 500, maxBackoffMs: 4_000, healthyAfterMs: 30_000, giveUpAfterExits: 5, giveUpWindowMs: 60_000 });

  it('doubles the delay from 0.5 s up to the cap while exits keep coming, and gives up at the 5th within 60 s', () => {
    const p = policy();
    // Exits 20 s apart (never healthy long enough, never 5 within 60 s): the delay doubles to the cap.
    expect([0, 20_000, 40_000, 60_000, 80_000, 100_000].map((t) => p.onExit(t, 1_000))).toEqual([
      { restart: true, delayMs: 500, recentExits: 1 },
      { restart: true, delayMs: 1_000, recentExits: 2 },
      { restart: true, delayMs: 2_000, recentExits: 3 },
      { restart: true, delayMs: 4_000, recentExits: 3 },
      { restart: true, delayMs: 4_000, recentExits: 3 },
      { restart: true, delayMs: 4_000, recentExits: 3 },
    ]);
    const fast = policy();
    const decisions = [0, 600, 1_700, 3_800, 8_000].map((t) => fast.onExit(t, 100));
    expect(decisions.map((d) => d.restart)).toEqual([true, true, true, true, false]);
    expect(decisions[4]).toEqual({ restart: false, recentExits: 5 });
  });

  it('starts over after a process ran healthy for a while', () => {
    const p = policy();
    for (const t of [0, 1_000, 2_000, 3_000]) p.onExit(t, 100);
    // Ran 30 s: the next exit is the first again, after the shortest delay.
    expect(p.onExit(40_000, 30_000)).toEqual({ restart: true, delayMs: 500, recentExits: 1 });
    expect(p.onExit(41_000, 100)).toEqual({ restart: true, delayMs: 1_000, recentExits: 2 });
  });
});
