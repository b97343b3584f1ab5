import type { Logger } from '@ris/logging';
import { uniqueName } from '@ris/testing';
import { rebuildBalances } from './balance-rebuild';
import { balanceId } from '../events/derived-ids';
import type { IncentiveModules } from '../incentive-modules';
import { creditEntry } from '../testing/credit-entry';
import { engineOnTestDatabase, type TestEngine } from '../testing/engine-on-test-database';
import { balanceModel } from './balance.model';
import { ledgerEntryModel } from './ledger-entry.model';

jest.setTimeout(60_000);

describe('balance rebuild from the ledger', () => {
  let test: TestEngine;
  let db: TestEngine['db'];
  let logger: Logger;
  let engine: IncentiveModules;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('incentive_rebuild');
    ({ db, logger, engine } = test);
    await engine.actions.create(appId, { key: 'a', name: 'A', type: 'STANDARD', coins: 3, xp: 2, tokens: 1, cooldownSeconds: 0, maxRepeats: 5, enabled: true, description: null });
    for (const user of ['u1', 'u2', 'u3']) {
      await engine.recorder.record(appId, [1, 2, 3].map(() => ({ userId: user, actionKey: 'a', idempotencyKey: null, metadata: null, source: 'API' as const, sourceEventId: null })));
    }
    await engine.movements.debit(appId, { userId: 'u1', operationId: 'd1', coins: 4, tokens: 0, description: null });
  });

  afterAll(() => test.close());

  it('finds no drift when the balances are what the ledger says', async () => {
    const report = await rebuildBalances(db, logger, { appId, fix: false });
    expect(report).toMatchObject({ users: 3, entries: 10, drifted: [], pendingTails: [], gaps: [], orphanBalances: [] });
  });

  it('reports drift and a pending tail, and fixes both', async () => {
    // Someone edited a balance by hand, and a writer crashed after inserting its entry.
    await balanceModel(db).updateOne({ _id: balanceId(appId, 'u2') }, { $inc: { coins: 1000 } }).exec();
    const { state } = await engine.ledger.settled(appId, 'u3');
    await ledgerEntryModel(db).create(creditEntry(appId, 'u3', state.seq + 1, 'credit:crashed', 5, { coins: state.coins + 5, xp: state.xp, tokens: state.tokens }));

    const check = await rebuildBalances(db, logger, { appId, fix: false });
    expect(check.drifted).toEqual([
      expect.objectContaining({ userId: 'u2', fixed: false, stored: expect.objectContaining({ coins: 1009 }), fromLedger: expect.objectContaining({ coins: 9 }) }),
    ]);
    expect(check.pendingTails).toEqual([{ appId, userId: 'u3', balanceSeq: 3, ledgerSeq: 4, settled: false }]);

    const fixed = await rebuildBalances(db, logger, { appId, fix: true });
    expect(fixed.drifted.map((d) => [d.userId, d.fixed])).toEqual([['u2', true]]);
    expect(fixed.pendingTails[0].settled).toBe(true);
    expect(await rebuildBalances(db, logger, { appId, fix: false })).toMatchObject({ drifted: [], pendingTails: [] });
    expect((await engine.ledger.settled(appId, 'u2')).state.coins).toBe(9);
    expect((await engine.ledger.settled(appId, 'u3')).state.coins).toBe(14);
  });
});
