import { Code, ConnectError } from '@connectrpc/connect';
import { errorReason, toConnectError } from '@ris/rpc';
import { eventClaimModel } from './events/event-claim.model';
import { incentiveEventModel } from './events/incentive-event.model';
import { ledgerEntryModel } from './ledger/ledger-entry.model';
import { atTheEdge, outcomeAtTheEdge } from './testing/at-the-edge';
import { uniqueName } from '@ris/testing';
import { applyMovement, emptyBalance } from './ledger/balance-fold';
import { incentiveModules, type IncentiveModules } from './incentive-modules';
import { creditEntry } from './testing/credit-entry';
import { engineOnTestDatabase, type TestEngine } from './testing/engine-on-test-database';
import type { EventInput, RecordOutcome, RecordedEvent } from './events/record-events';

// The engine against real FerretDB/MongoDB and Redis: rules under
// concurrency, the ledger invariant, grants, crash recovery, snapshots.
jest.setTimeout(60_000);

describe('incentive engine (real MongoDB and Redis)', () => {
  let test: TestEngine;
  let db: TestEngine['db'];
  let redis: TestEngine['redis'];
  let logger: TestEngine['logger'];
  let engine: IncentiveModules;
  let outbox: TestEngine['outbox'];
  let prefix: string;
  const appId = uniqueName('app');

  beforeAll(async () => {
    test = await engineOnTestDatabase('incentive', { claimLeaseMs: 2_000 });
    ({ db, redis, logger, engine, outbox, redisKeyPrefix: prefix } = test);
  }, 60_000);

  afterAll(() => test.close());

  const event = (userId: string, actionKey: string, idempotencyKey: string | null = null): EventInput => ({
    userId,
    actionKey,
    idempotencyKey,
    metadata: null,
    source: 'API',
    sourceEventId: null,
  });
  const ok = (o: RecordOutcome): RecordedEvent => {
    if (o instanceof Error) throw o;
    return o;
  };
  const one = async (input: EventInput) => ok((await engine.recorder.record(appId, [input]))[0]);

  async function action(key: string, fields: Partial<Parameters<IncentiveModules['actions']['create']>[1]> = {}, app = appId) {
    return engine.actions.create(app, {
      key,
      name: key,
      type: 'STANDARD',
      coins: 10,
      xp: 5,
      tokens: 0,
      cooldownSeconds: 0,
      maxRepeats: null,
      enabled: true,
      description: null,
      ...fields,
    });
  }

  /** The invariant: folding the user's ledger gives the stored balance. */
  async function expectLedgerMatchesBalance(userId: string, app = appId) {
    const { state } = await engine.ledger.settled(app, userId);
    const entries = await ledgerEntryModel(db).find({ appId: app, userId }).sort({ seq: 1 }).lean().exec();
    expect(entries.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    const folded = entries.reduce((s, e) => applyMovement(s, e), emptyBalance());
    expect({ coins: state.coins, xp: state.xp, tokens: state.tokens, seq: state.seq }).toEqual({
      coins: folded.coins,
      xp: folded.xp,
      tokens: folded.tokens,
      seq: folded.seq,
    });
    return state;
  }

  it('rewards events and applies cooldown, maxRepeats and enabled', async () => {
    await action('daily', { cooldownSeconds: 3600 });
    await action('twice', { maxRepeats: 2 });
    await action('off', { enabled: false });
    const first = await one(event('u1', 'daily'));
    expect(first.event.result).toMatchObject({ rewarded: { coins: 10, xp: 5, tokens: 0 }, reason: null, balance: { coins: 10, xp: 5, tokens: 0, level: 0 } });
    expect((await one(event('u1', 'daily'))).event.result).toMatchObject({ rewarded: null, reason: 'COOLDOWN', balance: { coins: 10 } });
    expect((await one(event('u1', 'twice'))).event.result.reason).toBeNull();
    expect((await one(event('u1', 'twice'))).event.result.reason).toBeNull();
    expect((await one(event('u1', 'twice'))).event.result.reason).toBe('MAX_REPEATS');
    expect((await one(event('u1', 'off'))).event.result.reason).toBe('ACTION_DISABLED');
    const missing = outcomeAtTheEdge((await engine.recorder.record(appId, [event('u1', 'nope')]))[0]);
    expect(missing).toBeInstanceOf(ConnectError);
    expect((missing as ConnectError).code).toBe(Code.NotFound);
    await expectLedgerMatchesBalance('u1');
  });

  it('gives exactly maxRepeats rewards to 100 concurrent events of one user', async () => {
    await action('capped', { maxRepeats: 10, coins: 3, xp: 1 });
    const outcomes = (await Promise.all(Array.from({ length: 100 }, () => engine.recorder.record(appId, [event('racer', 'capped')])))).map(
      ([o]) => ok(o),
    );
    expect(outcomes.filter((o) => o.event.result.rewarded)).toHaveLength(10);
    expect(outcomes.filter((o) => o.event.result.reason === 'MAX_REPEATS')).toHaveLength(90);
    const state = await expectLedgerMatchesBalance('racer');
    expect(state).toMatchObject({ coins: 30, xp: 10, rewardedEvents: 10 });
  }, 60_000);

  it('holds the rules and the invariant across two replicas writing at once', async () => {
    // A second engine on the same database: its own caches, queues and
    // group commits, so only the ledger's compare-and-set keeps order.
    const replica = incentiveModules({ db, redis, redisKeyPrefix: prefix, outbox, logger });
    await action('shared', { maxRepeats: 10, coins: 2 });
    const engines = [engine, replica];
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) => engines[i % 2].recorder.record(appId, [event('two', 'shared')]).then(([o]) => ok(o))),
    );
    expect(outcomes.filter((o) => o.event.result.rewarded)).toHaveLength(10);
    await replica.movements.credit(appId, { userId: 'two', operationId: 'two-credit', coins: 30, tokens: 0, description: null });
    const debits = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => engines[i % 2].movements.debit(appId, { userId: 'two', operationId: `two-${i}`, coins: 5, tokens: 0, description: null })),
    );
    expect(debits.filter((d) => d.status === 'fulfilled')).toHaveLength(10);
    expect((await expectLedgerMatchesBalance('two')).coins).toBe(0);
  }, 60_000);

  it('applies one idempotencyKey once among 50 concurrent calls', async () => {
    await action('once');
    const outcomes = (await Promise.all(Array.from({ length: 50 }, () => engine.recorder.record(appId, [event('idem', 'once', 'k-1')])))).map(
      ([o]) => ok(o),
    );
    expect(new Set(outcomes.map((o) => o.event._id)).size).toBe(1);
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect((await expectLedgerMatchesBalance('idem')).coins).toBe(10);
  }, 60_000);

  it('gives one reward per cooldown window to concurrent events', async () => {
    await action('window', { cooldownSeconds: 600 });
    const outcomes = (await Promise.all(Array.from({ length: 30 }, () => engine.recorder.record(appId, [event('cool', 'window')])))).map(
      ([o]) => ok(o),
    );
    expect(outcomes.filter((o) => o.event.result.rewarded)).toHaveLength(1);
    expect(outcomes.filter((o) => o.event.result.reason === 'COOLDOWN')).toHaveLength(29);
  }, 60_000);

  it('processes a bulk in input order, per user, with duplicates and bad events', async () => {
    await action('bulk', { maxRepeats: 3 });
    const inputs = [
      event('b1', 'bulk'),
      event('b2', 'bulk', 'same'),
      event('b1', 'missing-action'),
      event('b1', 'bulk'),
      event('b2', 'bulk', 'same'),
      event('b1', 'bulk'),
      event('b1', 'bulk'),
    ];
    const outcomes = await engine.recorder.record(appId, inputs);
    expect(outcomeAtTheEdge(outcomes[2])).toBeInstanceOf(ConnectError);
    const results = outcomes.map((o) => (o instanceof Error ? null : o));
    expect(results.map((r) => r?.event.result.reason ?? null)).toEqual([null, null, null, null, null, null, 'MAX_REPEATS']);
    expect(results.map((r) => r?.event.result.balance.coins ?? null)).toEqual([10, 10, null, 20, 10, 30, 30]);
    expect(results[4]).toMatchObject({ duplicate: true, event: { _id: results[1]?.event._id } });
  });

  it('grants every crossed level once, with its badge, and reaches milestones once', async () => {
    const appId = uniqueName('levels');
    const one = async (input: EventInput) => ok((await engine.recorder.record(appId, [input]))[0]);
    await engine.badges.create(appId, { key: 'gold', name: 'Gold', description: null, imageUrl: null });
    await engine.levels.create(appId, { level: 1, name: 'One', xpThreshold: 0, rewards: { coins: 1, badgeKey: null, perks: [] } });
    await engine.levels.create(appId, { level: 2, name: 'Two', xpThreshold: 50, rewards: { coins: 20, badgeKey: null, perks: ['p2'] } });
    await engine.levels.create(appId, { level: 3, name: 'Three', xpThreshold: 90, rewards: { coins: 30, badgeKey: 'gold', perks: ['p3'] } });
    await engine.milestones.create(appId, {
      key: 'xp-100',
      name: 'Hundred',
      description: null,
      metric: 'XP',
      threshold: 100,
      rewards: { coins: 0, xp: 5, tokens: 7, badgeKey: null },
    });
    await engine.actions.create(appId, { key: 'big', name: 'Big', type: 'STANDARD', coins: 0, xp: 100, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
    const result = (await one(event('climber', 'big'))).event.result;
    // Level 1 starts at 0 XP: a new user is already on it (its reward comes with the first XP).
    expect(result.levelUp).toEqual({ from: 1, to: 3 });
    expect(result.badgesAwarded).toEqual([{ key: 'gold', name: 'Gold' }]);
    expect(result.milestonesReached).toEqual([{ key: 'xp-100', name: 'Hundred', metric: 'XP', threshold: 100 }]);
    expect(result.balance).toEqual({ coins: 51, xp: 105, tokens: 7, level: 3 });
    const again = (await one(event('climber', 'big'))).event.result;
    expect(again).toMatchObject({ levelUp: null, badgesAwarded: [], milestonesReached: [], balance: { coins: 51, xp: 205 } });
    // Each announcement is stored with what it announces (no relay runs here): the level-up and the milestone with
    // the ledger entries that grant them, the badge with its award, the event with its document.
    const stored = (await outbox.pending()).filter((e) => JSON.parse(e.json).appId === appId);
    expect(stored.map((e) => [e.type, e.collection]).sort()).toEqual([
      ['incentive.badge_awarded', 'user_badges'],
      ['incentive.event.processed', 'events'],
      ['incentive.event.processed', 'events'],
      ['incentive.level_up', 'ledger'],
      ['incentive.milestone_reached', 'ledger'],
    ]);
    expect(JSON.parse(stored.find((e) => e.type === 'incentive.level_up')!.json).data).toMatchObject({ userId: 'climber', from: 0, to: 3 });
    const { state } = await engine.ledger.settled(appId, 'climber');
    expect(state.levelsGranted).toEqual([1, 2, 3]);
    expect(state.perks.sort()).toEqual(['p2', 'p3']);
    expect((await engine.milestones.listReached(appId, { page: 1, limit: 10 }, { userId: 'climber' })).totalItems).toBe(1);
    await expect(
      atTheEdge(engine.levels.create(appId, { level: 4, name: 'Four', xpThreshold: 80, rewards: { coins: 0, badgeKey: null, perks: [] } })),
    ).rejects.toMatchObject({ code: Code.FailedPrecondition });
  });

  it('never debits below zero, whatever the concurrency, and replays operation ids', async () => {
    await engine.movements.credit(appId, { userId: 'buyer', operationId: 'seed', coins: 100, tokens: 5, description: null });
    const attempts = await Promise.allSettled(
      Array.from({ length: 25 }, (_, i) => atTheEdge(engine.movements.debit(appId, { userId: 'buyer', operationId: `op-${i}`, coins: 10, tokens: 0, description: null }))),
    );
    expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(10);
    for (const a of attempts.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(a.reason).toBeInstanceOf(ConnectError);
      expect(errorReason(a.reason as ConnectError).reason).toBe('INSUFFICIENT_BALANCE');
    }
    const firstPaid = attempts.findIndex((a) => a.status === 'fulfilled');
    const replay = await engine.movements.debit(appId, { userId: 'buyer', operationId: `op-${firstPaid}`, coins: 10, tokens: 0, description: null });
    expect(replay.replayed).toBe(true);
    await expect(
      atTheEdge(engine.movements.debit(appId, { userId: 'buyer', operationId: `op-${firstPaid}`, coins: 11, tokens: 0, description: null })),
    ).rejects.toMatchObject({ code: Code.Aborted });
    const state = await expectLedgerMatchesBalance('buyer');
    expect(state.coins).toBe(0);
    await expect(
      atTheEdge(engine.movements.debit(appId, { userId: 'buyer', operationId: 'seed-2', coins: 0, tokens: 6, description: null })),
    ).rejects.toMatchObject({ code: Code.FailedPrecondition });
  }, 60_000);

  it('adjusts by hand: signed amounts in one entry, refused whole below zero, once per operation key, XP granting levels', async () => {
    // An app of its own: only its one level is reached.
    const adjApp = uniqueName('app');
    const adjust = (fields: Partial<Parameters<IncentiveModules['movements']['adjust']>[1]>) =>
      atTheEdge(engine.movements.adjust(adjApp, { userId: 'adjusted', coins: 0, tokens: 0, xp: 0, note: 'Goodwill', operationKey: '', ...fields }));
    await engine.levels.create(adjApp, { level: 7, name: 'Adjusted', xpThreshold: 900_000, rewards: { coins: 3, badgeKey: null, perks: [] } });
    const credit = await adjust({ coins: 50, tokens: 2, xp: 900_000, operationKey: 'op-adjust-1' });
    expect(credit.entry).toMatchObject({ reason: 'ADJUSTMENT', cause: 'ADJUSTMENT', coins: 50, tokens: 2, xp: 900_000, description: 'Goodwill' });
    // The level its XP reached is granted after it, as for any XP.
    expect(credit.balance.state).toMatchObject({ coins: 53, tokens: 2, xp: 900_000, levelsGranted: [7] });
    const replay = await adjust({ coins: 50, tokens: 2, xp: 900_000, operationKey: 'op-adjust-1' });
    expect([replay.replayed, replay.entry._id]).toEqual([true, credit.entry._id]);
    // Any amount that would go below zero refuses the whole adjustment.
    for (const over of [{ coins: -54 }, { tokens: -3, coins: -1 }, { xp: -900_001 }]) {
      await expect(adjust({ ...over, note: 'Too much' })).rejects.toMatchObject({ code: Code.FailedPrecondition });
    }
    const debit = await adjust({ coins: -53, xp: -900_000, note: 'Taken back' });
    // XP taken back does not take a level back.
    expect(debit.balance.state).toMatchObject({ coins: 0, tokens: 2, xp: 0, levelsGranted: [7] });
    for (const bad of [{ coins: 0 }, { coins: 1.5 }, { coins: 1, note: '  ' }, { coins: 1, note: 'x'.repeat(501) }]) {
      await expect(adjust(bad)).rejects.toMatchObject({ code: Code.InvalidArgument });
    }
    const state = await expectLedgerMatchesBalance('adjusted', adjApp);
    expect([state.coins, state.tokens, state.xp, state.coinsEarned]).toEqual([0, 2, 0, 3]);
  });

  it('finishes an entry a crashed writer inserted but did not apply', async () => {
    await engine.movements.credit(appId, { userId: 'crash', operationId: 'c1', coins: 5, tokens: 0, description: null });
    const { state } = await engine.ledger.settled(appId, 'crash');
    await ledgerEntryModel(db).create(creditEntry(appId, 'crash', state.seq + 1, 'credit:orphan', 7, { coins: 12, xp: 0, tokens: 0 }));
    // The next writer finds the tail, applies it, then writes its own entry.
    await engine.movements.credit(appId, { userId: 'crash', operationId: 'c2', coins: 1, tokens: 0, description: null });
    expect((await expectLedgerMatchesBalance('crash')).coins).toBe(13);
  });

  it('finishes an event whose holder died (expired claim)', async () => {
    await action('recover');
    const claim = {
      _id: 'evt_recover_me',
      appId,
      userId: 'phoenix',
      actionKey: 'recover',
      idempotencyKey: 'rk',
      source: 'API' as const,
      sourceEventId: null,
      metadataJson: '{"a":1}',
      createdAt: new Date(),
      lockedUntil: new Date(Date.now() - 1000),
    };
    await eventClaimModel(db).create(claim);
    expect(await engine.recorder.recoverExpiredClaims()).toBe(1);
    const stored = await incentiveEventModel(db).findById('evt_recover_me').lean().exec();
    expect(stored?.result.rewarded).toEqual({ coins: 10, xp: 5, tokens: 0 });
    expect(await eventClaimModel(db).countDocuments({ _id: 'evt_recover_me' })).toBe(0);
    expect((await expectLedgerMatchesBalance('phoenix')).coins).toBe(10);
  });

  it('drops a dead holder\'s claim whose event was written, without deciding the event again', async () => {
    await action('single', { maxRepeats: 1 });
    await one(event('lazarus', 'single'));
    const refused = await one(event('lazarus', 'single', 'late'));
    expect(refused.event.result.reason).toBe('MAX_REPEATS');
    // The rule changes afterwards; then the claim of the refused event shows
    // up again (its holder died between writing the event and releasing it).
    await engine.actions.update(appId, 'single', { maxRepeats: 5 });
    const { result: _result, ...input } = refused.event;
    await eventClaimModel(db).create({ ...input, lockedUntil: new Date(Date.now() - 1000) });
    // And its incentive.event.processed is not stored (it died before storing it, say), or was published and cleared.
    const processedOf = async () =>
      (await outbox.pending()).filter((e) => e.type === 'incentive.event.processed' && JSON.parse(e.json).data.eventId === refused.event._id);
    await incentiveEventModel(db).collection.updateMany({ appId }, { $unset: { outbox: '', outboxPending: '', outboxAt: '' } });
    expect(await processedOf()).toEqual([]);

    expect(await engine.recorder.recoverExpiredClaims()).toBe(1);
    // Stored again (the same id: published once) with the claim's release.
    expect(await processedOf()).toHaveLength(1);
    expect(await eventClaimModel(db).countDocuments({ _id: refused.event._id })).toBe(0);
    // Answered once as refused, so it earns nothing now either.
    expect((await expectLedgerMatchesBalance('lazarus')).coins).toBe(10);
    // And a replay of its key gets the first answer and leaves no claim behind.
    const replay = await one(event('lazarus', 'single', 'late'));
    expect(replay).toMatchObject({ duplicate: true, event: { _id: refused.event._id, result: { reason: 'MAX_REPEATS' } } });
    expect(await eventClaimModel(db).countDocuments({ appId })).toBe(0);
  });

  it('records the events of one request (its operation key, no idempotencyKey) once, however often it is retried', async () => {
    await action('opkeyed', { coins: 7 });
    const first = await one({ ...event('retrier', 'opkeyed'), operationKey: 'a'.repeat(32) });
    const again = await one({ ...event('retrier', 'opkeyed'), operationKey: 'a'.repeat(32) });
    expect(again).toMatchObject({ duplicate: true, event: { _id: first.event._id } });
    const other = await one({ ...event('retrier', 'opkeyed'), operationKey: 'b'.repeat(32) });
    expect(other.event._id).not.toBe(first.event._id);
    expect((await expectLedgerMatchesBalance('retrier')).coins).toBe(14);
  });

  it('takes over at once the claim of a holder whose process died, though its lease still runs', async () => {
    await action('orphan', { coins: 3 });
    const alive = { instanceId: 'proc_alive', isAlive: async (id: string | null | undefined) => id === 'proc_alive' };
    const survivor = incentiveModules({ db, redis, redisKeyPrefix: prefix, outbox, logger, liveness: alive });
    const input = event('orphaned', 'orphan', 'held-by-the-dead');
    const dead = (userId: string, _id: string) => ({
      _id,
      appId,
      userId,
      actionKey: 'orphan',
      idempotencyKey: null,
      source: 'API' as const,
      sourceEventId: null,
      metadataJson: null,
      createdAt: new Date(),
      lockedUntil: new Date(Date.now() + 60_000),
      holder: 'proc_dead',
    });
    // A retry of the key finds the dead holder's claim and finishes the event itself, without waiting out the lease.
    const [claimed] = await survivor.recorder.record(appId, [input]).then((o) => o.map(ok));
    await survivor.claims.release(appId, [claimed.event._id]);
    await incentiveEventModel(db).deleteOne({ _id: claimed.event._id }).exec();
    await eventClaimModel(db).create({ ...dead('orphaned', claimed.event._id), idempotencyKey: 'held-by-the-dead' });
    const started = Date.now();
    const retried = ok((await survivor.recorder.record(appId, [input]))[0]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(retried.event._id).toBe(claimed.event._id);
    // The recovery pass takes such claims too; a live holder's claim it leaves alone.
    await eventClaimModel(db).create(dead('orphan2', 'evt_orphan_of_dead'));
    await eventClaimModel(db).create({ ...dead('orphan3', 'evt_orphan_of_live'), holder: 'proc_alive' });
    expect(await survivor.recorder.recoverExpiredClaims()).toBe(1);
    expect(await incentiveEventModel(db).countDocuments({ _id: 'evt_orphan_of_dead' })).toBe(1);
    expect(await eventClaimModel(db).countDocuments({ _id: 'evt_orphan_of_live' })).toBe(1);
    await survivor.claims.release(appId, ['evt_orphan_of_live']);
  });

  it('ranks the board by XP, ties to whoever got there first, and rebuilds it identically', async () => {
    const board = uniqueName('board');
    const flat = async (key: string, xp: number) =>
      engine.actions.create(board, { key, name: key, type: 'STANDARD', coins: 1, xp, tokens: 0, cooldownSeconds: 0, maxRepeats: null, enabled: true, description: null });
    await flat('ten', 10);
    await flat('twenty', 20);
    const rec = (userId: string, key: string) => engine.recorder.record(board, [event(userId, key)]);
    await rec('early', 'twenty');
    // Ties break to the millisecond (both orders of user ids: leaderboard-ties.spec.ts).
    await new Promise((r) => setTimeout(r, 5));
    await rec('late', 'ten');
    await rec('late', 'ten');
    await rec('top', 'twenty');
    await rec('top', 'ten');
    const before = await engine.leaderboard.top(board, 'ALL_TIME', 10);
    expect(before.map((e) => [e.rank, e.userId, e.xp])).toEqual([
      [1, 'top', 30],
      [2, 'early', 20],
      [3, 'late', 20],
    ]);
    expect(await engine.leaderboard.entry(board, 'DAILY', 'late')).toEqual({ rank: 3, userId: 'late', xp: 20, coins: 2 });
    // Several users in one read: each answered on its own, in order.
    const some = await engine.leaderboard.entries(board, 'WEEKLY', ['late', 'nobody', 'top', 'late']);
    expect(some.slice(0, 1).concat(some.slice(2))).toEqual([
      { rank: 3, userId: 'late', xp: 20, coins: 2 },
      { rank: 1, userId: 'top', xp: 30, coins: 2 },
      { rank: 3, userId: 'late', xp: 20, coins: 2 },
    ]);
    const nobody = outcomeAtTheEdge(some[1]);
    expect(nobody).toBeInstanceOf(ConnectError);
    expect([(nobody as ConnectError).code, errorReason(nobody as ConnectError)]).toEqual([
      Code.NotFound,
      { reason: 'NOT_FOUND', details: { userId: 'nobody', period: 'WEEKLY' } },
    ]);
    await expect(atTheEdge(engine.leaderboard.entries(board, 'WEEKLY', []))).rejects.toMatchObject({ code: Code.InvalidArgument });
    const keys = await redis.keys(`${prefix}lb:${board}:*`);
    await redis.del(...keys);
    // Flushed: the next read (of either kind) rebuilds from MongoDB.
    expect(await engine.leaderboard.entries(board, 'ALL_TIME', ['early'])).toEqual([{ rank: 2, userId: 'early', xp: 20, coins: 1 }]);
    expect(await engine.leaderboard.top(board, 'ALL_TIME', 10)).toEqual(before);
    expect(await engine.leaderboard.refresh(board)).toBe(3);
    expect(await engine.leaderboard.top(board, 'WEEKLY', 10)).toEqual(before);
  });

  it('snapshots boards whose period ended', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect(await engine.snapshots.takeDue(tomorrow)).toBeGreaterThan(0);
    const page = await engine.snapshots.list(appId, { page: 1, limit: 10 }, 'DAILY');
    expect(page.items[0]).toMatchObject({ period: 'DAILY', entries: expect.any(Array) });
    expect(page.items[0].entries[0]).toMatchObject({ rank: 1 });
    // Once per board.
    expect(await engine.snapshots.takeDue(tomorrow)).toBe(0);
  });
  describe('single calls recorded together (SingleEventCommit)', () => {
    const singles = uniqueName('singles');
    const single = (input: EventInput) => engine.singleEvents.record(singles, input);
    const fulfilled = <T>(settled: PromiseSettledResult<T>): T => {
      if (settled.status === 'rejected') throw settled.reason;
      return settled.value;
    };
    /** Calls made in one turn of the event loop: asserted to be one batch, one call of the recorder. */
    async function inOneBatch(calls: () => Array<Promise<RecordedEvent>>): Promise<Array<PromiseSettledResult<RecordedEvent>>> {
      const record = jest.spyOn(engine.recorder, 'record');
      try {
        const settled = await Promise.allSettled(calls());
        expect(record.mock.calls.map(([, inputs]) => inputs.length)).toEqual([settled.length]);
        return settled;
      } finally {
        record.mockRestore();
      }
    }

    beforeAll(async () => {
      await action('tap', {}, singles);
      await action('thrice', { maxRepeats: 3 }, singles);
      await action('hourly', { cooldownSeconds: 3600 }, singles);
    });

    it('sends a call alone at once, and answers each call of a batch its own result, in arrival order per user', async () => {
      const alone = await inOneBatch(() => [single(event('s0', 'tap'))]);
      expect(fulfilled(alone[0])).toMatchObject({ duplicate: false, event: { userId: 's0', result: { balance: { coins: 10 } } } });

      const users = ['s1', 's2', 's1', 's3', 's1', 's2'];
      const results = (await inOneBatch(() => users.map((u) => single(event(u, 'tap'))))).map(fulfilled);
      expect(results.map((r) => [r.event.userId, r.event.result.balance.coins, r.duplicate])).toEqual([
        ['s1', 10, false],
        ['s2', 10, false],
        ['s1', 20, false],
        ['s3', 10, false],
        ['s1', 30, false],
        ['s2', 20, false],
      ]);
      expect(new Set(results.map((r) => r.event._id)).size).toBe(users.length);
      const stored = await incentiveEventModel(db).find({ appId: singles, userId: 's1' }).lean().exec();
      expect(stored.map((e) => e.result.balance.coins).sort()).toEqual([10, 20, 30]);
      expect((await expectLedgerMatchesBalance('s1', singles)).coins).toBe(30);
      expect(await eventClaimModel(db).countDocuments({ appId: singles })).toBe(0);
    });

    it('answers the second of two calls with one idempotencyKey in one batch as its duplicate, credited once', async () => {
      const [first, second] = (await inOneBatch(() => [single(event('k1', 'tap', 'same-key')), single(event('k1', 'tap', 'same-key'))])).map(fulfilled);
      expect([first.duplicate, second.duplicate]).toEqual([false, true]);
      expect(second.event).toEqual(first.event);
      expect((await expectLedgerMatchesBalance('k1', singles)).coins).toBe(10);
      expect((await incentiveEventModel(db).findById(first.event._id).lean().exec())?.duplicates).toBe(1);
      // A later call with that key is a duplicate too, as alone.
      expect(await single(event('k1', 'tap', 'same-key'))).toMatchObject({ duplicate: true, event: { _id: first.event._id } });
    });

    it('holds maxRepeats and cooldown for concurrent single calls, in one batch and across batches', async () => {
      const batch = (await inOneBatch(() => [
        ...Array.from({ length: 20 }, () => single(event('r1', 'thrice'))),
        ...Array.from({ length: 10 }, () => single(event('r1', 'hourly'))),
      ])).map(fulfilled);
      expect(batch.slice(0, 20).map((r) => r.event.result.reason)).toEqual([null, null, null, ...Array<string>(17).fill('MAX_REPEATS')]);
      expect(batch.slice(20).map((r) => r.event.result.reason)).toEqual([null, ...Array<string>(9).fill('COOLDOWN')]);
      expect(await expectLedgerMatchesBalance('r1', singles)).toMatchObject({ coins: 40, rewardedEvents: 4 });

      // Spread over several batches (and two in flight at once).
      const spread = await Promise.all(
        Array.from({ length: 30 }, (_, i) => new Promise((resolve) => setTimeout(resolve, (i % 6) * 4)).then(() => single(event('r2', i % 2 ? 'thrice' : 'hourly')))),
      );
      expect(spread.filter((r) => r.event.actionKey === 'thrice' && r.event.result.rewarded)).toHaveLength(3);
      expect(spread.filter((r) => r.event.actionKey === 'hourly' && r.event.result.rewarded)).toHaveLength(1);
      expect(await expectLedgerMatchesBalance('r2', singles)).toMatchObject({ coins: 40, rewardedEvents: 4 });
    });

    it("fails a call with its own error (as alone), and not the others of its batch", async () => {
      const settled = await inOneBatch(() => [single(event('e1', 'tap')), single(event('e1', 'no-such-action')), single(event('e2', 'tap'))]);
      expect([fulfilled(settled[0]).event.result.balance.coins, fulfilled(settled[2]).event.result.balance.coins]).toEqual([10, 10]);
      expect(settled[1].status).toBe('rejected');
      const inBatch = toConnectError((settled[1] as PromiseRejectedResult).reason) as ConnectError;
      const alone = outcomeAtTheEdge((await engine.recorder.record(singles, [event('e1', 'no-such-action')]))[0]) as ConnectError;
      expect([inBatch.code, errorReason(inBatch), inBatch.rawMessage]).toEqual([Code.NotFound, errorReason(alone), alone.rawMessage]);
      expect(errorReason(inBatch)).toEqual({ reason: 'NOT_FOUND', details: { actionKey: 'no-such-action' } });
    });

    it("fails only a user's calls when that user's balance write fails, and leaves their claim to be finished", async () => {
      const serialized = engine.ledger.serialized.bind(engine.ledger);
      const failing = jest
        .spyOn(engine.ledger, 'serialized')
        .mockImplementation(((app: string, userId: string, work: () => Promise<unknown>) =>
          userId === 'broken' ? Promise.reject(new Error('store down for this user')) : serialized(app, userId, work)) as typeof serialized);
      try {
        const settled = await inOneBatch(() => [single(event('f1', 'tap')), single(event('broken', 'tap', 'broken-key')), single(event('f2', 'tap'))]);
        expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((settled[1] as PromiseRejectedResult).reason).toEqual(new Error('store down for this user'));
      } finally {
        failing.mockRestore();
      }
      const claims = await eventClaimModel(db).find({ appId: singles }).lean().exec();
      expect(claims.map((c) => [c.userId, c.lockedUntil.getTime() <= Date.now()])).toEqual([['broken', true]]);
      // A retry of its key takes the claim over and finishes it, once.
      expect(await single(event('broken', 'tap', 'broken-key'))).toMatchObject({ duplicate: true, event: { result: { balance: { coins: 10 } } } });
      expect((await expectLedgerMatchesBalance('broken', singles)).coins).toBe(10);
    });
  });
});
