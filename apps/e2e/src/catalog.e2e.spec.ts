import { createTestApp, waitForEvents, type TestApp } from '@ris/testing';
import { CoinFaucet, balanceMatchingLedger, balanceOf, ledgerOf } from './support/coin-balances';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('catalog and redemptions', () => {
  let app: TestApp;
  let other: TestApp;
  let faucet: CoinFaucet;
  let n = 0;
  const user = (name = 'user') => `${name}-${(n += 1)}`;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('catalog'), createTestApp('catalog other')]);
    faucet = new CoinFaucet(app);
  });

  const createItem = async (body: Record<string, unknown>, owner = app) => {
    const res = await owner.api.post('/incentives/catalog', { name: `Item ${(n += 1)}`, coinCost: 10, published: true, ...body });
    expect(res.status).toBe(201);
    return res.body.item as { id: string; inventory: number; coinCost: number; tokenCost: number };
  };
  const inventoryOf = async (itemId: string) => (await app.api.get(`/incentives/catalog/${itemId}`)).body.item.inventory as number;

  describe('items', () => {
    it('creates an item with the documented defaults', async () => {
      const res = await app.api.post('/incentives/catalog', { name: ' Mug ', coinCost: 50 });
      expect(res.status).toBe(201);
      expect(res.body.item).toEqual({
        id: expect.stringMatching(/^itm_/),
        name: 'Mug',
        description: '',
        coinCost: 50,
        tokenCost: 0,
        inventory: -1,
        published: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const full = await app.api.post('/incentives/catalog', {
        name: 'Hoodie',
        description: 'Warm',
        coinCost: 500,
        tokenCost: 5,
        inventory: 3,
        published: true,
        unknownField: 'ignored',
      });
      expect(full.status).toBe(201);
      expect(full.body.item).toMatchObject({ name: 'Hoodie', description: 'Warm', coinCost: 500, tokenCost: 5, inventory: 3, published: true });
      expect(full.body.item.unknownField).toBeUndefined();
    });

    it('refuses missing, negative, fractional and mistyped fields with 400', async () => {
      const bad: Array<Record<string, unknown>> = [
        { coinCost: 10 },
        { name: '', coinCost: 10 },
        { name: 'No cost' },
        { name: 'Negative', coinCost: -1 },
        { name: 'Fraction', coinCost: 1.5 },
        { name: 'Tokens', coinCost: 1, tokenCost: -3 },
        { name: 'Stock', coinCost: 1, inventory: -2 },
        { name: 'Stock', coinCost: 1, inventory: 2.5 },
        { name: 'Types', coinCost: '10' },
        { name: 'Types', coinCost: 1, published: 'yes' },
      ];
      for (const body of bad) {
        const res = await app.api.post('/incentives/catalog', body);
        expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_ERROR']);
      }
    });

    it('gets, updates and soft-deletes an item', async () => {
      const item = await createItem({ inventory: 4 });
      const got = await app.api.get(`/incentives/catalog/${item.id}`);
      expect(got.status).toBe(200);
      expect(got.body.item.id).toBe(item.id);

      const patched = await app.api.patch(`/incentives/catalog/${item.id}`, { name: 'Renamed', inventory: 7, published: false });
      expect(patched.status).toBe(200);
      expect(patched.body.item).toMatchObject({ id: item.id, name: 'Renamed', inventory: 7, published: false, coinCost: 10 });
      expect(Date.parse(patched.body.item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(got.body.item.updatedAt));
      expect((await app.api.patch(`/incentives/catalog/${item.id}`, { coinCost: -5 })).status).toBe(400);
      expect((await app.api.patch(`/incentives/catalog/${item.id}`, { inventory: -7 })).status).toBe(400);

      const deleted = await app.api.delete(`/incentives/catalog/${item.id}`);
      expect(deleted.status).toBe(204);
      expect((await app.api.get(`/incentives/catalog/${item.id}`)).status).toBe(404);
      expect((await app.api.patch(`/incentives/catalog/${item.id}`, { name: 'Zombie' })).status).toBe(404);
      expect((await app.api.delete(`/incentives/catalog/${item.id}`)).status).toBe(404);
      const listed = await app.api.get('/incentives/catalog?limit=100');
      expect(listed.body.items.map((i: { id: string }) => i.id)).not.toContain(item.id);
    });

    it('lists items newest first, paged, filtered by published', async () => {
      const lister = await createTestApp('catalog lister');
      const made = [];
      for (let i = 0; i < 5; i += 1) {
        made.push((await lister.api.post('/incentives/catalog', { name: `L${i}`, coinCost: i, published: i % 2 === 0 })).body.item.id);
      }
      const page1 = await lister.api.get('/incentives/catalog?limit=2');
      expect(page1.status).toBe(200);
      expect(page1.body.items.map((i: { id: string }) => i.id)).toEqual([made[4], made[3]]);
      expect(page1.body.pagination).toEqual({ page: 1, limit: 2, totalItems: 5, totalPages: 3 });
      const page3 = await lister.api.get('/incentives/catalog?limit=2&page=3');
      expect(page3.body.items.map((i: { id: string }) => i.id)).toEqual([made[0]]);
      const published = await lister.api.get('/incentives/catalog?published=true');
      expect(published.body.items.map((i: { id: string }) => i.id)).toEqual([made[4], made[2], made[0]]);
      const hidden = await lister.api.get('/incentives/catalog?published=false');
      expect(hidden.body.pagination.totalItems).toBe(2);
      expect((await lister.api.get('/incentives/catalog?published=maybe')).status).toBe(400);
      expect((await lister.api.get('/incentives/catalog?limit=101')).status).toBe(400);
      expect((await lister.api.get('/incentives/catalog?page=0')).status).toBe(400);
    });

    it("keeps apps apart: another app's item is unknown to it", async () => {
      const item = await createItem({ inventory: 2 });
      expect((await other.api.get(`/incentives/catalog/${item.id}`)).status).toBe(404);
      expect((await other.api.patch(`/incentives/catalog/${item.id}`, { name: 'Mine now' })).status).toBe(404);
      expect((await other.api.delete(`/incentives/catalog/${item.id}`)).status).toBe(404);
      const redeem = await other.api.post('/incentives/redeem', { userId: 'intruder', itemId: item.id });
      expect(redeem.status).toBe(404);
      expect(redeem.body.error.code).toBe('NOT_FOUND');
      const list = await other.api.get('/incentives/catalog?limit=100');
      expect(list.body.items.map((i: { id: string }) => i.id)).not.toContain(item.id);
      expect(await inventoryOf(item.id)).toBe(2);
      expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.name).not.toBe('Mine now');
    });
  });

  describe('redeeming', () => {
    it('takes one unit and debits coins and tokens, answering the redemption and the balance', async () => {
      const item = await createItem({ coinCost: 30, tokenCost: 2, inventory: 3 });
      const alice = user('alice');
      await faucet.give(alice, 100, 5);
      const res = await app.api.post('/incentives/redeem', { userId: alice, itemId: item.id });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        redemption: {
          id: expect.stringMatching(/^rdm_/),
          userId: alice,
          itemId: item.id,
          itemName: expect.any(String),
          coinCost: 30,
          tokenCost: 2,
          status: 'PENDING',
          redeemedAt: expect.stringMatching(ISO),
          fulfilledAt: null,
          cancelledAt: null,
          updatedAt: expect.stringMatching(ISO),
        },
        balance: { coins: 70, tokens: 3, xp: expect.any(Number), level: expect.any(Number) },
      });
      expect(await inventoryOf(item.id)).toBe(2);
      expect(await balanceMatchingLedger(app, alice)).toEqual({ coins: 70, tokens: 3, matches: true });

      const [event] = await waitForEvents('redemption.created', (e) => e.data.redemptionId === res.body.redemption.id, 1);
      expect(event).toMatchObject({
        appId: app.appId,
        data: { redemptionId: res.body.redemption.id, userId: alice, itemId: item.id, coinCost: 30, tokenCost: 2, status: 'PENDING' },
      });
    });

    it('does not count units of an unlimited item', async () => {
      const item = await createItem({ coinCost: 1 });
      const bea = user('bea');
      await faucet.give(bea, 5);
      expect((await app.api.post('/incentives/redeem', { userId: bea, itemId: item.id })).status).toBe(201);
      expect(await inventoryOf(item.id)).toBe(-1);
    });

    it('refuses with 422 and changes nothing when the user cannot pay, the item is sold out, unpublished or deleted', async () => {
      const cleo = user('cleo');
      await faucet.give(cleo, 20, 1);
      const expectRefused = async (itemId: string, code: string) => {
        const res = await app.api.post('/incentives/redeem', { userId: cleo, itemId });
        expect([res.status, res.body.error?.code]).toEqual([422, code]);
      };
      const dear = await createItem({ coinCost: 21, inventory: 5 });
      await expectRefused(dear.id, 'INSUFFICIENT_BALANCE');
      const tokens = await createItem({ coinCost: 1, tokenCost: 2, inventory: 5 });
      await expectRefused(tokens.id, 'INSUFFICIENT_BALANCE');
      const soldOut = await createItem({ coinCost: 1, inventory: 0 });
      await expectRefused(soldOut.id, 'OUT_OF_STOCK');
      const hidden = await createItem({ coinCost: 1, inventory: 5, published: false });
      await expectRefused(hidden.id, 'ITEM_UNAVAILABLE');
      const gone = await createItem({ coinCost: 1, inventory: 5 });
      await app.api.delete(`/incentives/catalog/${gone.id}`);
      await expectRefused(gone.id, 'ITEM_UNAVAILABLE');

      expect(await inventoryOf(dear.id)).toBe(5);
      expect(await inventoryOf(tokens.id)).toBe(5);
      expect(await balanceMatchingLedger(app, cleo)).toEqual({ coins: 20, tokens: 1, matches: true });
      const ledger = await ledgerOf(app, cleo);
      expect(ledger.entries.filter((e) => e.coins < 0 || e.tokens < 0)).toEqual([]);
      expect((await app.api.get(`/incentives/redemptions?userId=${cleo}`)).body.pagination.totalItems).toBe(0);
    });

    it('answers 404 for an unknown item and 400 for a bad body', async () => {
      expect((await app.api.post('/incentives/redeem', { userId: 'x', itemId: 'itm_missing' })).status).toBe(404);
      expect((await app.api.post('/incentives/redeem', { userId: 'x' })).status).toBe(400);
      expect((await app.api.post('/incentives/redeem', { itemId: 'itm_x' })).status).toBe(400);
      expect((await app.api.post('/incentives/redeem', { userId: '', itemId: 'itm_x' })).status).toBe(400);
    });

    it('sells an item with 5 in stock to exactly 5 of 30 users redeeming at once', async () => {
      const item = await createItem({ coinCost: 10, inventory: 5 });
      const buyers = Array.from({ length: 30 }, () => user('rush'));
      await Promise.all(buyers.map((b) => faucet.give(b, 10)));
      const results = await Promise.all(buyers.map((userId) => app.api.post('/incentives/redeem', { userId, itemId: item.id })));
      const won = results.filter((r) => r.status === 201);
      expect(won).toHaveLength(5);
      expect(results.filter((r) => r.status === 422).map((r) => r.body.error.code)).toEqual(Array(25).fill('OUT_OF_STOCK'));
      expect(await inventoryOf(item.id)).toBe(0);
      const listed = await app.api.get(`/incentives/redemptions?itemId=${item.id}`);
      expect(listed.body.pagination.totalItems).toBe(5);

      const winners = new Set(won.map((r) => r.body.redemption.userId as string));
      let debits = 0;
      for (const b of buyers) {
        const { coins, matches } = await balanceMatchingLedger(app, b);
        expect(matches).toBe(true);
        expect(coins).toBe(winners.has(b) ? 0 : 10);
        const ledger = await ledgerOf(app, b);
        debits += ledger.entries.filter((e) => e.coins < 0).length;
      }
      expect(debits).toBe(5);
    });

    it('lets a user who can afford one redemption make exactly one of 10 at once', async () => {
      const item = await createItem({ coinCost: 40, inventory: 50 });
      const dina = user('dina');
      await faucet.give(dina, 50);
      const results = await Promise.all(Array.from({ length: 10 }, () => app.api.post('/incentives/redeem', { userId: dina, itemId: item.id })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 422).map((r) => r.body.error.code)).toEqual(Array(9).fill('INSUFFICIENT_BALANCE'));
      expect(await inventoryOf(item.id)).toBe(49);
      expect(await balanceMatchingLedger(app, dina)).toEqual({ coins: 10, tokens: 0, matches: true });
    });
  });

  describe('redemption list and status', () => {
    let item: { id: string };
    const made: Array<{ id: string; userId: string }> = [];
    const ed = `ed-${Date.now()}`;
    const flo = `flo-${Date.now()}`;

    beforeAll(async () => {
      item = await createItem({ coinCost: 5, tokenCost: 1, inventory: 10 });
      await faucet.give(ed, 100, 10);
      await faucet.give(flo, 100, 10);
      for (const userId of [ed, flo, ed]) {
        const res = await app.api.post('/incentives/redeem', { userId, itemId: item.id });
        made.push(res.body.redemption);
      }
    });

    it('lists redemptions newest first, filtered by user, item and status, paged', async () => {
      const all = await app.api.get(`/incentives/redemptions?itemId=${item.id}`);
      expect(all.status).toBe(200);
      expect(all.body.redemptions.map((r: { id: string }) => r.id)).toEqual(made.map((r) => r.id).reverse());
      const byUser = await app.api.get(`/incentives/redemptions?userId=${ed}`);
      expect(byUser.body.redemptions.map((r: { id: string }) => r.id)).toEqual([made[2].id, made[0].id]);
      const paged = await app.api.get(`/incentives/redemptions?itemId=${item.id}&limit=2&page=2`);
      expect(paged.body.redemptions.map((r: { id: string }) => r.id)).toEqual([made[0].id]);
      expect(paged.body.pagination).toEqual({ page: 2, limit: 2, totalItems: 3, totalPages: 2 });
      const pending = await app.api.get(`/incentives/redemptions?itemId=${item.id}&status=PENDING`);
      expect(pending.body.pagination.totalItems).toBe(3);
      expect((await app.api.get('/incentives/redemptions?status=DONE')).status).toBe(400);
      // Another app sees none of them.
      const foreign = await other.api.get(`/incentives/redemptions?itemId=${item.id}`);
      expect(foreign.body.pagination.totalItems).toBe(0);
    });

    it('fulfils a PENDING redemption once', async () => {
      const res = await app.api.patch(`/incentives/redemptions/${made[0].id}`, { status: 'FULFILLED' });
      expect(res.status).toBe(200);
      expect(res.body.redemption).toMatchObject({ id: made[0].id, status: 'FULFILLED', fulfilledAt: expect.stringMatching(ISO) });
      const again = await app.api.patch(`/incentives/redemptions/${made[0].id}`, { status: 'CANCELLED' });
      expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_TRANSITION']);
      expect((await app.api.patch(`/incentives/redemptions/${made[0].id}`, { status: 'FULFILLED' })).status).toBe(409);
      expect((await app.api.get(`/incentives/redemptions?itemId=${item.id}&status=FULFILLED`)).body.redemptions.map((r: { id: string }) => r.id)).toEqual([
        made[0].id,
      ]);
      const [event] = await waitForEvents('redemption.fulfilled', (e) => e.data.redemptionId === made[0].id, 1);
      expect(event.data).toMatchObject({ status: 'FULFILLED', userId: ed, itemId: item.id });
    });

    it('cancels a PENDING redemption: refund and restock, exactly once', async () => {
      const before = await balanceOf(app, flo);
      const stock = await inventoryOf(item.id);
      const res = await app.api.patch(`/incentives/redemptions/${made[1].id}`, { status: 'CANCELLED' });
      expect(res.status).toBe(200);
      expect(res.body.redemption).toMatchObject({ status: 'CANCELLED', cancelledAt: expect.stringMatching(ISO) });
      expect(await balanceMatchingLedger(app, flo)).toEqual({ coins: before.coins + 5, tokens: before.tokens + 1, matches: true });
      expect(await inventoryOf(item.id)).toBe(stock + 1);
      const again = await app.api.patch(`/incentives/redemptions/${made[1].id}`, { status: 'CANCELLED' });
      expect([again.status, again.body.error.code]).toEqual([409, 'INVALID_TRANSITION']);
      expect(await balanceOf(app, flo)).toEqual({ coins: before.coins + 5, tokens: before.tokens + 1 });
      expect(await inventoryOf(item.id)).toBe(stock + 1);
      const [event] = await waitForEvents('redemption.cancelled', (e) => e.data.redemptionId === made[1].id, 1);
      expect(event.data).toMatchObject({ status: 'CANCELLED', coinCost: 5, tokenCost: 1 });
    });

    it('lets one of two concurrent status changes win', async () => {
      const results = await Promise.all([
        app.api.patch(`/incentives/redemptions/${made[2].id}`, { status: 'FULFILLED' }),
        app.api.patch(`/incentives/redemptions/${made[2].id}`, { status: 'CANCELLED' }),
        app.api.patch(`/incentives/redemptions/${made[2].id}`, { status: 'CANCELLED' }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const winner = results.find((r) => r.status === 200)!.body.redemption.status;
      const listed = await app.api.get(`/incentives/redemptions?userId=${ed}&status=${winner}`);
      expect(listed.body.redemptions.map((r: { id: string }) => r.id)).toContain(made[2].id);
      expect((await balanceMatchingLedger(app, ed)).matches).toBe(true);
    });

    it('refuses bad statuses, unknown ids and other apps', async () => {
      const pending = await app.api.post('/incentives/redeem', { userId: ed, itemId: item.id });
      const id = pending.body.redemption.id;
      expect((await app.api.patch(`/incentives/redemptions/${id}`, { status: 'PENDING' })).status).toBe(400);
      expect((await app.api.patch(`/incentives/redemptions/${id}`, {})).status).toBe(400);
      expect((await app.api.patch('/incentives/redemptions/rdm_missing', { status: 'FULFILLED' })).status).toBe(404);
      const foreign = await other.api.patch(`/incentives/redemptions/${id}`, { status: 'CANCELLED' });
      expect(foreign.status).toBe(404);
      expect((await app.api.get(`/incentives/redemptions?userId=${ed}&status=PENDING`)).body.redemptions.map((r: { id: string }) => r.id)).toContain(id);
    });
  });
});
