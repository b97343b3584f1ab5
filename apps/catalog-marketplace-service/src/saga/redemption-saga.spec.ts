import type { Outbox } from '@ris/events';
import { AppScoped } from '@ris/mongo';
import type { CatalogItems } from '../catalog/catalog-items';
import type { RedemptionDoc } from '../catalog/catalog-redemption.model';
import type { CatalogRedemptions } from '../catalog/catalog-redemptions';
import {
  catalogMarketplaceOnTestDatabase,
  detailsOf,
  reasonOf,
  type CatalogMarketplaceOnTestDatabase,
} from '../testing/catalog-marketplace-on-test-database';
import type { FakeBalanceAccount } from '../testing/fake-balance-account';
import type { RecoveryPass } from './recovery-pass';

// The catalog redemption saga against the real development database
// (FerretDB): the happy path, refusals, every crash point, and the races.
describe('catalog redemption saga', () => {
  const appId = 'app_saga';
  let service: CatalogMarketplaceOnTestDatabase;
  let stored: CatalogMarketplaceOnTestDatabase['stored'];
  let outbox: Outbox;
  let items: CatalogItems;
  let account: FakeBalanceAccount;
  let redemptions: CatalogRedemptions;
  let recovery: RecoveryPass;
  let n = 0;
  const user = () => `user_${(n += 1)}`;

  beforeAll(async () => {
    service = await catalogMarketplaceOnTestDatabase('catalog_saga');
    ({ stored, outbox, account } = service);
    ({ items, catalogRedemptions: redemptions, recovery } = service.modules);
  });

  afterEach(() => {
    account.mode = 'up';
  });

  afterAll(() => service.stop());

  const item = (inventory: number, coinCost = 10, tokenCost = 0) =>
    items.create(appId, { name: `Item ${(n += 1)}`, coinCost, tokenCost, inventory, published: true });
  const stock = async (itemId: string) => (await stored.items.findOne(appId, { _id: itemId }))!;
  const record = async (id: string) => (await stored.redemptions.findOne(appId, { _id: id }))!;
  // Events stored and not yet published (no relay runs here), once per id: a step stored again is published once.
  const eventsOf = async (redemptionId: string) =>
    [...new Map((await outbox.pending()).filter((e) => e.json.includes(redemptionId)).map((e) => [e.id, e.type])).values()].sort();
  /** What a crash leaves: the lease, as if it had run out. */
  const expireLease = (id: string) => stored.redemptions.updateOne(appId, { _id: id }, { $set: { leaseUntil: new Date(Date.now() - 1) } });

  /** A RESERVING record as the request writes it first (the crash cases start from here). */
  async function reserving(itemId: string, userId: string, overrides: Partial<RedemptionDoc> = {}): Promise<RedemptionDoc> {
    const it = await stock(itemId);
    const now = new Date();
    return stored.redemptions.create(appId, {
      _id: `rdm_crash_${(n += 1)}`,
      userId,
      itemId,
      itemName: it.name,
      coinCost: it.coinCost,
      tokenCost: it.tokenCost,
      state: 'RESERVING',
      debit: 'NOT_TRIED',
      failureReason: null,
      stockTaken: false,
      open: true,
      leaseUntil: new Date(now.getTime() + 60_000),
      holder: service.liveness.instanceId,
      operationKey: null,
      fulfilledAt: null,
      cancelledAt: null,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    });
  }

  it('takes a unit and debits, then closes with its event and no marker left', async () => {
    const it = await item(2, 10, 3);
    const alice = user();
    account.give(alice, 25, 5);
    const { redemption, balance } = await redemptions.redeem(appId, alice, it._id);
    expect(redemption).toMatchObject({ state: 'CONFIRMED', debit: 'DONE', stockTaken: true, coinCost: 10, tokenCost: 3 });
    expect(balance).toMatchObject({ coins: 15, tokens: 2 });
    expect(await record(redemption._id)).toMatchObject({ state: 'CONFIRMED', open: false });
    expect(await eventsOf(redemption._id)).toEqual(['redemption.created']);
    expect(await stock(it._id)).toMatchObject({ inventory: 1, stockHolds: [], stockReturns: [], stockMarked: true });
    // The sweep unmarks a good it finds clear.
    await recovery.runOnce();
    expect(await stock(it._id)).toMatchObject({ inventory: 1, stockMarked: false });
  });

  it('refuses an unpublished, deleted, sold-out or unaffordable item and changes nothing', async () => {
    const bob = user();
    account.give(bob, 5);
    const hidden = await items.create(appId, { name: 'Hidden', coinCost: 1, inventory: 3 });
    await expect(redemptions.redeem(appId, bob, hidden._id).catch(reasonOf)).resolves.toBe('ITEM_UNAVAILABLE');
    const gone = await item(3, 1);
    await items.delete(appId, gone._id);
    await expect(redemptions.redeem(appId, bob, gone._id).catch(reasonOf)).resolves.toBe('ITEM_UNAVAILABLE');
    const soldOut = await item(0, 1);
    await expect(redemptions.redeem(appId, bob, soldOut._id).catch(reasonOf)).resolves.toBe('OUT_OF_STOCK');
    const dear = await item(3, 10);
    await expect(redemptions.redeem(appId, bob, dear._id).catch(reasonOf)).resolves.toBe('INSUFFICIENT_BALANCE');
    expect(await stock(dear._id)).toMatchObject({ inventory: 3, stockHolds: [] });
    expect(account.of(bob).coins).toBe(5);
    const failed = await stored.redemptions.find(appId, { userId: bob });
    expect(failed.map((r) => [r.state, r.failureReason, r.open])).toEqual([['FAILED', 'INSUFFICIENT_BALANCE', false]]);
    expect((await redemptions.list(appId, { page: 1, limit: 10 }, { userId: bob })).totalItems).toBe(0);
  });

  it('sells exactly the stock to concurrent buyers', async () => {
    const it = await item(5, 10);
    const buyers = Array.from({ length: 30 }, () => user());
    for (const b of buyers) account.give(b, 10);
    const debitsBefore = account.debits.length;
    const results = await Promise.allSettled(buyers.map((b) => redemptions.redeem(appId, b, it._id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => reasonOf(r.reason));
    // The winners' holds settle within the wait: the losers get the final answer, not a conflict.
    expect(new Set(refused)).toEqual(new Set(['OUT_OF_STOCK']));
    expect(await stock(it._id)).toMatchObject({ inventory: 0, stockHolds: [] });
    expect(account.debits.length - debitsBefore).toBe(5);
  });

  it('makes concurrent takes of one good together, and exact when stock runs short', async () => {
    const plenty = await item(100, 1);
    const writes = jest.spyOn(AppScoped.prototype, 'updateOne');
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => items.stock.take(appId, plenty._id, `rdm_group_${plenty._id}_${i}`)));
    expect(writes.mock.calls.length).toBeLessThan(10);
    writes.mockRestore();
    expect(outcomes).toEqual(Array(20).fill('TAKEN'));
    expect(await stock(plenty._id)).toMatchObject({ inventory: 80 });
    expect((await stock(plenty._id)).stockHolds).toHaveLength(20);

    const scarce = await item(3, 1);
    const scarceOutcomes = await Promise.all(Array.from({ length: 10 }, (_, i) => items.stock.take(appId, scarce._id, `rdm_scarce_${scarce._id}_${i}`)));
    expect(scarceOutcomes.filter((o) => o === 'TAKEN')).toHaveLength(3);
    // None left, but the three takes are not final yet: they may come back.
    expect(scarceOutcomes.filter((o) => o === 'HELD')).toHaveLength(7);
    expect(await stock(scarce._id)).toMatchObject({ inventory: 0 });
    // Taking again for a holder answers TAKEN and takes nothing more.
    expect(await items.stock.take(appId, plenty._id, `rdm_group_${plenty._id}_0`)).toBe('TAKEN');
    expect(await stock(plenty._id)).toMatchObject({ inventory: 80 });
  });

  it('makes concurrent confirmations final in batched writes', async () => {
    const it = await item(50, 1);
    const holders = Array.from({ length: 20 }, (_, i) => `rdm_batch_${it._id}_${i}`);
    for (const h of holders) await items.stock.take(appId, it._id, h);
    const writes = jest.spyOn(AppScoped.prototype, 'updateOne');
    await Promise.all(holders.map((h) => items.stock.commitSoon(appId, it._id, h)));
    expect(writes.mock.calls.length).toBeLessThan(holders.length / 2);
    writes.mockRestore();
    expect(await stock(it._id)).toMatchObject({ inventory: 30, stockHolds: [] });
  });

  it('lets a user afford one of ten concurrent redemptions, and returns every other reservation', async () => {
    const it = await item(20, 10);
    const carol = user();
    account.give(carol, 15);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => redemptions.redeem(appId, carol, it._id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(account.of(carol).coins).toBe(5);
    await recovery.runOnce();
    expect(await stock(it._id)).toMatchObject({ inventory: 19, stockHolds: [] });
  });

  it('undoes a redemption whose debit went unanswered, once the balance service is back', async () => {
    for (const mode of ['down', 'lostAnswer'] as const) {
      const it = await item(4, 10);
      const dave = user();
      account.give(dave, 30);
      account.mode = mode;
      await expect(redemptions.redeem(appId, dave, it._id).catch(reasonOf)).resolves.toBe('UNAVAILABLE');
      // The unit is back at once; the coins wait for the service.
      expect(await stock(it._id)).toMatchObject({ inventory: 4, stockHolds: [] });
      const [left] = await stored.redemptions.find(appId, { userId: dave });
      expect(left).toMatchObject({ state: 'COMPENSATING', debit: 'UNKNOWN', open: true });

      await recovery.runOnce(); // still unreachable: nothing changes, it will retry
      expect(await record(left._id)).toMatchObject({ state: 'COMPENSATING' });
      account.mode = 'up';
      await recovery.runOnce();
      expect(await record(left._id)).toMatchObject({ state: 'FAILED', open: false });
      expect(account.of(dave).coins).toBe(30);
      expect(await stock(it._id)).toMatchObject({ inventory: 4, stockHolds: [] });
      expect(await eventsOf(left._id)).toEqual([]);
    }
  });

  it('undoes a crash between the reservation and the debit', async () => {
    const it = await item(3, 10);
    const erin = user();
    account.give(erin, 10);
    const r = await reserving(it._id, erin);
    expect(await items.stock.take(appId, it._id, r._id)).toBe('TAKEN');
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'RESERVING' }); // its lease still runs
    await expireLease(r._id);
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'FAILED', failureReason: 'ABANDONED', open: false });
    expect(await stock(it._id)).toMatchObject({ inventory: 3, stockHolds: [] });
    expect(account.of(erin).coins).toBe(10);
  });

  it('undoes a crash between the debit and the confirmation', async () => {
    const it = await item(3, 10);
    const fay = user();
    account.give(fay, 10);
    const r = await reserving(it._id, fay);
    await items.stock.take(appId, it._id, r._id);
    await account.debit({ operationId: `${r._id}:debit`, appId, userId: fay, coins: 10, tokens: 0, memo: 'test', cause: 'CATALOG_REDEMPTION' });
    expect(account.of(fay).coins).toBe(0);
    await expireLease(r._id);
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'FAILED', debit: 'DONE', open: false });
    expect(await stock(it._id)).toMatchObject({ inventory: 3, stockHolds: [] });
    expect(account.of(fay).coins).toBe(10);
  });

  it('finishes the follow-up of a confirmation a crash interrupted', async () => {
    const it = await item(3, 10);
    const gus = user();
    account.give(gus, 10);
    const r = await reserving(it._id, gus);
    await items.stock.take(appId, it._id, r._id);
    await account.debit({ operationId: `${r._id}:debit`, appId, userId: gus, coins: 10, tokens: 0, memo: 'test', cause: 'CATALOG_REDEMPTION' });
    await redemptions.saga.move(r, { type: 'DEBITED', stockTaken: true });
    await expireLease(r._id);
    await recovery.runOnce(); // follow-up first, then the sweep sees it closed
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'CONFIRMED', open: false });
    expect(await stock(it._id)).toMatchObject({ inventory: 2, stockHolds: [] });
    expect(await eventsOf(r._id)).toEqual(['redemption.created']);
  });

  it('releases a unit a stalled request took after its redemption was already undone', async () => {
    const it = await item(3, 10);
    const hal = user();
    const r = await reserving(it._id, hal);
    await expireLease(r._id);
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'FAILED' });
    // The stalled request wakes up and reserves anyway.
    await items.stock.take(appId, it._id, r._id);
    expect(await stock(it._id)).toMatchObject({ inventory: 2, stockHolds: [r._id] });
    await recovery.runOnce();
    expect(await stock(it._id)).toMatchObject({ inventory: 3, stockHolds: [] });
  });

  it('answers a sold-out good whose last unit a dead process holds with a conflict, and frees the unit within a pass', async () => {
    const it = await item(1, 10);
    const ida = user();
    const jon = user();
    account.give(jon, 10);
    // A request took the last unit, then its process died (it no longer beats); its lease still runs.
    const r = await reserving(it._id, ida, { holder: 'proc_dead' });
    expect(await items.stock.take(appId, it._id, r._id)).toBe('TAKEN');
    const refused: unknown = await redemptions.redeem(appId, jon, it._id).catch((err: unknown) => err);
    expect(reasonOf(refused)).toBe('CONFLICT');
    expect(detailsOf(refused)).toMatchObject({ itemId: it._id, reason: 'STOCK_HELD' });
    await recovery.runOnce();
    expect(await record(r._id)).toMatchObject({ state: 'FAILED', failureReason: 'ABANDONED' });
    expect(await stock(it._id)).toMatchObject({ inventory: 1, stockHolds: [] });
    await expect(redemptions.redeem(appId, jon, it._id)).resolves.toMatchObject({ redemption: { state: 'CONFIRMED' } });
  });

  describe('with an operation key (a request with an Idempotency-Key), one purchase per key', () => {
    let k = 0;
    const key = () => `${Date.now().toString(16)}${(k += 1).toString(16).padStart(8, '0')}`;

    it('answers a repeat with the same redemption and debits once, also when the repeats race', async () => {
      const it = await item(10, 10);
      const kim = user();
      account.give(kim, 100);
      const op = key();
      const first = await redemptions.redeem(appId, kim, it._id, op);
      expect(first.redemption._id).toBe(`rdm_${op}`);
      const again = await redemptions.redeem(appId, kim, it._id, op);
      expect(again.redemption._id).toBe(first.redemption._id);
      expect(again.balance).toMatchObject({ coins: 90 });

      const racing = key();
      const results = await Promise.allSettled(Array.from({ length: 8 }, () => redemptions.redeem(appId, kim, it._id, racing)));
      const made = new Set(results.filter((r) => r.status === 'fulfilled').map((r) => r.value.redemption._id));
      expect(made).toEqual(new Set([`rdm_${racing}`]));
      for (const r of results) if (r.status === 'rejected') expect(reasonOf(r.reason)).toBe('CONFLICT');
      expect(account.of(kim).coins).toBe(80);
      expect(await stock(it._id)).toMatchObject({ inventory: 8 });
    });

    it('makes a new attempt after one whose outcome was lost and undone, and only one attempt succeeds', async () => {
      const it = await item(5, 10);
      const lea = user();
      account.give(lea, 30);
      const op = key();
      account.mode = 'lostAnswer'; // debited, the answer lost: compensated
      await expect(redemptions.redeem(appId, lea, it._id, op).catch(reasonOf)).resolves.toBe('UNAVAILABLE');
      account.mode = 'up';
      // The refund waits for the recovery pass; the retry does not need to.
      const retried = await redemptions.redeem(appId, lea, it._id, op);
      expect(retried.redemption._id).toBe(`rdm_${op}_2`);
      await recovery.runOnce();
      expect(await record(`rdm_${op}`)).toMatchObject({ state: 'FAILED', failureReason: 'UNAVAILABLE' });
      expect(account.of(lea).coins).toBe(20);
      const third = await redemptions.redeem(appId, lea, it._id, op);
      expect(third.redemption._id).toBe(`rdm_${op}_2`);
      expect(account.of(lea).coins).toBe(20);
      expect(await stock(it._id)).toMatchObject({ inventory: 4, stockHolds: [] });
    });

    it('takes over and finishes a redemption whose process died after the debit', async () => {
      const it = await item(3, 10);
      const max = user();
      account.give(max, 10);
      const op = key();
      const r = await reserving(it._id, max, { _id: `rdm_${op}`, holder: 'proc_dead', operationKey: op });
      await items.stock.take(appId, it._id, r._id);
      await account.debit({ operationId: `${r._id}:debit`, appId, userId: max, coins: 10, tokens: 0, memo: 'test', cause: 'CATALOG_REDEMPTION' });
      const resumed = await redemptions.redeem(appId, max, it._id, op);
      expect(resumed.redemption).toMatchObject({ _id: r._id, state: 'CONFIRMED', stockTaken: true });
      expect(account.of(max).coins).toBe(0);
      expect(await stock(it._id)).toMatchObject({ inventory: 2, stockHolds: [] });
      expect(await eventsOf(r._id)).toEqual(['redemption.created']);
    });

    it('answers a repeat of a final refusal with the same refusal, and a key reused for another item with IDEMPOTENCY_KEY_REUSED', async () => {
      const it = await item(3, 10);
      const other = await item(3, 1);
      const ned = user();
      account.give(ned, 5);
      const op = key();
      await expect(redemptions.redeem(appId, ned, it._id, op).catch(reasonOf)).resolves.toBe('INSUFFICIENT_BALANCE');
      account.give(ned, 50);
      await expect(redemptions.redeem(appId, ned, it._id, op).catch(reasonOf)).resolves.toBe('INSUFFICIENT_BALANCE');
      await expect(redemptions.redeem(appId, ned, other._id, op).catch(reasonOf)).resolves.toBe('IDEMPOTENCY_KEY_REUSED');
      expect(account.of(ned).coins).toBe(50);
    });

    it('tells a retry to come back while another request still works on the key', async () => {
      const it = await item(3, 10);
      const ola = user();
      account.give(ola, 10);
      const op = key();
      await reserving(it._id, ola, { _id: `rdm_${op}`, operationKey: op });
      await expect(redemptions.redeem(appId, ola, it._id, op).catch(reasonOf)).resolves.toBe('CONFLICT');
      expect(account.of(ola).coins).toBe(10);
    });
  });

  it('cancels with a refund and a restock, exactly once', async () => {
    const it = await item(3, 10, 2);
    const ivy = user();
    account.give(ivy, 10, 2);
    const { redemption } = await redemptions.redeem(appId, ivy, it._id);
    const cancelled = await redemptions.changeStatus(appId, redemption._id, 'CANCELLED');
    expect(cancelled).toMatchObject({ state: 'CANCELLED', open: false, cancelledAt: expect.any(Date) });
    expect(account.of(ivy)).toMatchObject({ coins: 10, tokens: 2 });
    await recovery.runOnce();
    expect(await stock(it._id)).toMatchObject({ inventory: 3, stockHolds: [], stockReturns: [] });
    expect(await eventsOf(redemption._id)).toEqual(['redemption.cancelled', 'redemption.created']);
    await expect(redemptions.changeStatus(appId, redemption._id, 'CANCELLED').catch(reasonOf)).resolves.toBe('INVALID_TRANSITION');
    await expect(redemptions.changeStatus(appId, redemption._id, 'FULFILLED').catch(reasonOf)).resolves.toBe('INVALID_TRANSITION');
    expect(account.of(ivy)).toMatchObject({ coins: 10, tokens: 2 });
  });

  it('finishes a cancellation whose refund failed, on retry or by the recovery pass', async () => {
    const it = await item(3, 10);
    for (const finish of ['retry', 'recovery'] as const) {
      const jo = user();
      account.give(jo, 10);
      const { redemption } = await redemptions.redeem(appId, jo, it._id);
      account.mode = 'down';
      await expect(redemptions.changeStatus(appId, redemption._id, 'CANCELLED').catch(reasonOf)).resolves.toBe('Unavailable');
      expect(await record(redemption._id)).toMatchObject({ state: 'CANCELLING', open: true });
      account.mode = 'up';
      if (finish === 'retry') await redemptions.changeStatus(appId, redemption._id, 'CANCELLED');
      else await recovery.runOnce();
      expect(await record(redemption._id)).toMatchObject({ state: 'CANCELLED', open: false });
      expect(account.of(jo).coins).toBe(10);
    }
    await recovery.runOnce();
    expect(await stock(it._id)).toMatchObject({ inventory: 3, stockHolds: [], stockReturns: [] });
  });

  it('lets one of two concurrent status changes win', async () => {
    const it = await item(-1, 10);
    const kim = user();
    account.give(kim, 10);
    const { redemption } = await redemptions.redeem(appId, kim, it._id);
    const results = await Promise.allSettled([
      redemptions.changeStatus(appId, redemption._id, 'FULFILLED'),
      redemptions.changeStatus(appId, redemption._id, 'CANCELLED'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(reasonOf(refused.reason)).toBe('INVALID_TRANSITION');
    const final = await record(redemption._id);
    expect(account.of(kim).coins).toBe(final.state === 'CANCELLED' ? 10 : 0);
    // Unlimited items are not counted: nothing was taken or given back.
    expect(await stock(it._id)).toMatchObject({ inventory: -1, stockHolds: [], stockReturns: [] });
  });

  it('does not restock an item made unlimited since, nor drive it below -1', async () => {
    const it = await item(2, 10);
    const lee = user();
    account.give(lee, 10);
    const { redemption } = await redemptions.redeem(appId, lee, it._id);
    await items.update(appId, it._id, { inventory: -1 });
    await redemptions.changeStatus(appId, redemption._id, 'CANCELLED');
    expect(await stock(it._id)).toMatchObject({ inventory: -1, stockReturns: [] });
  });
});
