import { createLogger } from '@ris/logging';
import { takeOverAbandoned, type LeaseTakeover } from './take-over-abandoned';

/** Work under a lease, in memory: who holds it, until when, and what is owed on it. */
interface Held {
  id: string;
  holder: string;
  leaseUntil: number;
  owes: 'FINISH' | 'NOTHING';
}

const NOW = 1_000_000;
const ME = 'proc_me';

/** A store of leased work whose take-over is conditional on the lease read, like the services' repositories. */
function leases(items: Held[], alive: Set<string>, steps: { perform?: (taken: Held) => Promise<void>; lost?: Set<string>; failTakeOver?: Set<string> } = {}) {
  const stored = new Map(items.map((item) => [item.id, { ...item }]));
  const performed: string[] = [];
  const givenBack: string[] = [];
  const lease: LeaseTakeover<Held, 'FINISH', Held> = {
    owed: async (c) => {
      const abandoned = c.leaseUntil <= NOW || !alive.has(c.holder);
      return abandoned && c.owes === 'FINISH' ? 'FINISH' : null;
    },
    takeOver: async (c) => {
      if (steps.failTakeOver?.has(c.id)) throw new Error(`store refused ${c.id}`);
      const current = stored.get(c.id);
      // Someone else moved its lease since it was read: theirs.
      if (!current || current.leaseUntil !== c.leaseUntil || steps.lost?.has(c.id)) return null;
      const mine = { ...current, holder: ME, leaseUntil: NOW + 30_000 };
      stored.set(c.id, mine);
      return mine;
    },
    perform: async (taken) => {
      await steps.perform?.(taken);
      performed.push(taken.id);
    },
    giveBack: async (taken) => {
      givenBack.push(taken.id);
      stored.set(taken.id, { ...taken, leaseUntil: NOW });
    },
    about: (c, owed) => ({ id: c.id, owed }),
  };
  return { lease, stored, performed, givenBack };
}

const held = (id: string, over: Partial<Held> = {}): Held => ({ id, holder: 'proc_live', leaseUntil: NOW + 10_000, owes: 'FINISH', ...over });

describe('takeOverAbandoned', () => {
  const logger = createLogger('take-over-test', 'silent');
  let warn: jest.SpyInstance;
  // The fields of each warning logged (the logger itself is silent).
  const warnings = () => warn.mock.calls.map(([fields]: unknown[]) => fields);

  beforeEach(() => {
    warn = jest.spyOn(logger, 'warn');
  });

  afterEach(() => jest.restoreAllMocks());

  it('takes over and performs work whose lease ran out or whose holder died; leaves held work and work owing nothing', async () => {
    const { lease, performed, stored } = leases(
      [
        held('expired', { leaseUntil: NOW - 1 }),
        held('lease-ends-now', { leaseUntil: NOW }),
        held('holder-dead', { holder: 'proc_dead' }),
        held('held'),
        held('nothing-owed', { leaseUntil: NOW - 1, owes: 'NOTHING' }),
      ],
      new Set(['proc_live']),
    );
    const taken = await takeOverAbandoned(logger, 'recovery failed', [...stored.values()], lease);
    expect(taken.map((t) => t.id)).toEqual(['expired', 'lease-ends-now', 'holder-dead']);
    expect(performed).toEqual(['expired', 'lease-ends-now', 'holder-dead']);
    expect(stored.get('holder-dead')).toMatchObject({ holder: ME, leaseUntil: NOW + 30_000 });
    expect(stored.get('held')).toMatchObject({ holder: 'proc_live' });
    expect(warnings()).toEqual([]);
  });

  it('skips what someone else took over first, without a warning', async () => {
    const { lease, performed, stored } = leases([held('a', { leaseUntil: NOW - 1 }), held('b', { leaseUntil: NOW - 1 })], new Set(), { lost: new Set(['a']) });
    const taken = await takeOverAbandoned(logger, 'recovery failed', [...stored.values()], lease);
    expect(taken.map((t) => t.id)).toEqual(['b']);
    expect(performed).toEqual(['b']);
    expect(warnings()).toEqual([]);
  });

  it('gives the lease back when the work fails, logs it, and goes on with the next candidate', async () => {
    const { lease, performed, givenBack, stored } = leases([held('fails', { holder: 'proc_dead' }), held('works', { holder: 'proc_dead' })], new Set(), {
      perform: async (taken) => {
        if (taken.id === 'fails') throw new Error('dependency down');
      },
    });
    const taken = await takeOverAbandoned(logger, 'recovery failed', [...stored.values()], lease);
    expect(taken.map((t) => t.id)).toEqual(['works']);
    expect(performed).toEqual(['works']);
    expect(givenBack).toEqual(['fails']);
    // Given back: the next pass finds it abandoned at once.
    expect(stored.get('fails')?.leaseUntil).toBe(NOW);
    expect(warnings()).toEqual([expect.objectContaining({ id: 'fails', owed: 'FINISH', err: expect.objectContaining({ message: 'dependency down' }) })]);
  });

  it('isolates a failed take-over too: logged, nothing given back, the others taken', async () => {
    const { lease, givenBack, stored } = leases([held('refused', { leaseUntil: NOW - 1 }), held('fine', { leaseUntil: NOW - 1 })], new Set(), {
      failTakeOver: new Set(['refused']),
    });
    const taken = await takeOverAbandoned(logger, 'recovery failed', [...stored.values()], lease);
    expect(taken.map((t) => t.id)).toEqual(['fine']);
    expect(givenBack).toEqual([]);
    expect(warnings()).toEqual([expect.objectContaining({ id: 'refused', err: expect.objectContaining({ message: 'store refused refused' }) })]);
  });

  it('without perform, returns what it took over for the caller to work on in one batch', async () => {
    const { lease, performed, stored } = leases([held('x', { leaseUntil: NOW - 1 }), held('y', { holder: 'proc_dead' }), held('z')], new Set(['proc_live']));
    const { perform: _perform, giveBack: _giveBack, ...takeOnly } = lease;
    const taken = await takeOverAbandoned(logger, 'recovery failed', [...stored.values()], takeOnly);
    expect(taken.map((t) => [t.id, t.holder])).toEqual([
      ['x', ME],
      ['y', ME],
    ]);
    expect(performed).toEqual([]);
  });

  it('fails the pass when deciding fails (liveness unreadable): every candidate would fail alike', async () => {
    const { lease, stored, performed } = leases([held('a', { leaseUntil: NOW - 1 }), held('b', { leaseUntil: NOW - 1 })], new Set());
    const unreadable: LeaseTakeover<Held, 'FINISH', Held> = { ...lease, owed: () => Promise.reject(new Error('store down')) };
    await expect(takeOverAbandoned(logger, 'recovery failed', [...stored.values()], unreadable)).rejects.toThrow('store down');
    expect(performed).toEqual([]);
  });
});
