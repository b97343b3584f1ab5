import { uniqueName } from '@ris/testing';
import type { IncentiveModules } from '../incentive-modules';
import { creditEntry } from '../testing/credit-entry';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { ledgerEntryModel } from './ledger-entry.model';

jest.setTimeout(60_000);

// Against the real development database (FerretDB v1) and Redis: the fills
// of several users that arrive together go in one insert, and each caller
// still gets the answer it would get alone.
describe('ledger fills of several users, together', () => {
  let test: TestEngine;
  let db: TestEngine['db'];
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('incentive_fills');
    ({ db, engine } = test);
    await engine.actions.create(appId, { key: 'a', name: 'A', type: 'STANDARD', coins: 3, xp: 2, tokens: 1, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(() => test.close());

  const entry = (userId: string, seq: number, key: string) => creditEntry(appId, userId, seq, key, 1, { coins: seq, xp: 0, tokens: 0 });

  it('stores the fills that arrive together with one insert', async () => {
    const inserts = jest.spyOn(ledgerEntryModel(db).collection, 'insertMany');
    const results = await Promise.all(['ivy', 'jon', 'kim'].map((userId) => engine.ledger.entries.fill([entry(userId, 1, `credit:${userId}-1`), entry(userId, 2, `credit:${userId}-2`)])));
    expect(results).toEqual([true, true, true]);
    expect(inserts).toHaveBeenCalledTimes(1);
    expect(inserts.mock.calls[0][0]).toHaveLength(6);
    expect(await ledgerEntryModel(db).countDocuments({ appId, userId: { $in: ['ivy', 'jon', 'kim'] } }).exec()).toBe(6);
  });

  it("keeps every balance exact when a call's users fill together, a bulk call of several events per user included", async () => {
    const users = ['ann', 'bob', 'cat', 'dan', 'eli', 'flo'];
    const event = (userId: string) => ({ userId, actionKey: 'a', idempotencyKey: null, metadata: null, source: 'API' as const, sourceEventId: null });
    await Promise.all([engine.recorder.record(appId, users.map(event)), engine.recorder.record(appId, users.flatMap((u) => [event(u), event(u)]))]);
    for (const userId of users) {
      expect((await engine.ledger.settled(appId, userId)).state).toMatchObject({ seq: 3, coins: 9, xp: 6, tokens: 3 });
      expect(await ledgerEntryModel(db).countDocuments({ appId, userId }).exec()).toBe(3);
    }
  });

  it('answers each fill as alone when one of the batch collides: the others in, the colliding one stopped at its taken slot', async () => {
    await engine.ledger.entries.fill([entry('eve', 1, 'credit:eve-first')]);
    const results = await Promise.all([
      engine.ledger.entries.fill([entry('fay', 1, 'credit:fay-1'), entry('fay', 2, 'credit:fay-2')]),
      // Slot 1 of eve is taken: this fill stops there, and its slot 2 stays empty.
      engine.ledger.entries.fill([entry('eve', 1, 'credit:eve-late'), entry('eve', 2, 'credit:eve-late-2')]),
      engine.ledger.entries.fill([entry('gus', 1, 'credit:gus-1')]),
      // A key recorded before: refused as alone.
      engine.ledger.entries.fill([entry('hal', 1, 'credit:eve-first')]),
    ]);
    expect(results).toEqual([true, false, true, false]);
    const stored = await ledgerEntryModel(db).find({ appId, userId: { $in: ['eve', 'fay', 'gus', 'hal'] } }).lean().exec();
    expect(stored.map((e) => `${e.userId}:${e.seq}:${e.key}`).sort()).toEqual(['eve:1:credit:eve-first', 'fay:1:credit:fay-1', 'fay:2:credit:fay-2', 'gus:1:credit:gus-1']);
  });
});
