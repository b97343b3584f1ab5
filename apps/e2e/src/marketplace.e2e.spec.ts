import { createTestApp, waitForEvents, type TestApp } from '@ris/testing';
import { CoinFaucet, balanceMatchingLedger } from './support/coin-balances';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CODE = /^MKT-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{4}$/;
const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

// A business app (shop) offers listings; users of other apps (game, third)
// redeem them with their own app's coins.
describe('marketplace', () => {
  let shop: TestApp;
  let game: TestApp;
  let third: TestApp;
  let gameFaucet: CoinFaucet;
  let n = 0;
  const user = (name = 'player') => `${name}-${(n += 1)}`;

  beforeAll(async () => {
    [shop, game, third] = await Promise.all([createTestApp('mkt shop'), createTestApp('mkt game'), createTestApp('mkt third')]);
    gameFaucet = new CoinFaucet(game);
  });

  const offer = async (body: Record<string, unknown> = {}, owner = shop) => {
    const res = await owner.api.post('/incentives/marketplace/listings', {
      title: `Offer ${(n += 1)}`,
      coinCost: 20,
      discount: { type: 'PERCENT', value: 15 },
      published: true,
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.listing as { id: string; quantity: number; coinCost: number; tokenCost: number };
  };
  const quantityOf = async (listingId: string) => (await shop.api.get(`/incentives/marketplace/listings/${listingId}`)).body.listing.quantity as number;
  const publicIds = async (viewer: TestApp, query = 'limit=100') =>
    ids((await viewer.api.get(`/incentives/marketplace/public/listings?${query}`)).body.listings);

  describe('listings (managed by the offering app)', () => {
    it('creates a listing with the documented defaults', async () => {
      const res = await shop.api.post('/incentives/marketplace/listings', { title: '10% off shoes', coinCost: 100, discount: { type: 'PERCENT', value: 10 } });
      expect(res.status).toBe(201);
      expect(res.body.listing).toEqual({
        id: expect.stringMatching(/^lst_/),
        title: '10% off shoes',
        description: '',
        coinCost: 100,
        tokenCost: 0,
        quantity: -1,
        discount: { type: 'PERCENT', value: 10 },
        expiresAt: null,
        published: false,
        codeValidityDays: 90,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const full = await shop.api.post('/incentives/marketplace/listings', {
        title: '$5 off',
        description: 'Any order',
        coinCost: 50,
        tokenCost: 2,
        quantity: 10,
        discount: { type: 'FIXED', value: 5 },
        expiresAt,
        published: true,
        codeValidityDays: 30,
      });
      expect(full.body.listing).toMatchObject({ tokenCost: 2, quantity: 10, discount: { type: 'FIXED', value: 5 }, expiresAt, published: true, codeValidityDays: 30 });
    });

    it('refuses invalid listings with 400', async () => {
      const base = { title: 'T', coinCost: 1, discount: { type: 'PERCENT', value: 10 } };
      const bad: Array<Record<string, unknown>> = [
        { ...base, title: '' },
        { ...base, coinCost: undefined },
        { ...base, coinCost: -1 },
        { ...base, coinCost: 0.5 },
        { ...base, tokenCost: -2 },
        { ...base, quantity: -2 },
        { ...base, discount: undefined },
        { ...base, discount: { type: 'PERCENT', value: 0 } },
        { ...base, discount: { type: 'PERCENT', value: 100.5 } },
        { ...base, discount: { type: 'FIXED', value: 0 } },
        { ...base, discount: { type: 'BOGO', value: 1 } },
        { ...base, expiresAt: 'tomorrow' },
        { ...base, codeValidityDays: 0 },
      ];
      for (const body of bad) {
        const res = await shop.api.post('/incentives/marketplace/listings', body);
        expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([JSON.stringify(body), 400, 'VALIDATION_ERROR']);
      }
      expect((await shop.api.post('/incentives/marketplace/listings', { ...base, discount: { type: 'PERCENT', value: 100 } })).status).toBe(201);
      // Well formed, but the clock has passed it: 422.
      const past = await shop.api.post('/incentives/marketplace/listings', { ...base, expiresAt: new Date(Date.now() - 60_000).toISOString() });
      expect([past.status, past.body.error.code]).toEqual([422, 'EXPIRES_AT_PASSED']);
    });

    it('gets, lists, updates and withdraws its own listings', async () => {
      const owner = await createTestApp('mkt owner');
      const a = await offer({ title: 'A' }, owner);
      const b = await offer({ title: 'B', published: false }, owner);
      const list = await owner.api.get('/incentives/marketplace/listings');
      expect(ids(list.body.listings)).toEqual([b.id, a.id]);
      expect(list.body.pagination).toEqual({ page: 1, limit: 25, totalItems: 2, totalPages: 1 });
      expect(ids((await owner.api.get('/incentives/marketplace/listings?published=false')).body.listings)).toEqual([b.id]);
      expect((await owner.api.get(`/incentives/marketplace/listings/${b.id}`)).body.listing.title).toBe('B');

      const patched = await owner.api.patch(`/incentives/marketplace/listings/${a.id}`, {
        title: 'A2',
        discount: { type: 'FIXED', value: 3 },
        expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
        quantity: 4,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.listing).toMatchObject({ title: 'A2', discount: { type: 'FIXED', value: 3 }, quantity: 4, expiresAt: expect.stringMatching(ISO) });
      const cleared = await owner.api.patch(`/incentives/marketplace/listings/${a.id}`, { expiresAt: null });
      expect(cleared.body.listing.expiresAt).toBeNull();
      expect((await owner.api.patch(`/incentives/marketplace/listings/${a.id}`, { discount: { type: 'PERCENT', value: 101 } })).status).toBe(400);

      expect((await owner.api.delete(`/incentives/marketplace/listings/${a.id}`)).status).toBe(204);
      expect((await owner.api.get(`/incentives/marketplace/listings/${a.id}`)).status).toBe(404);
      expect((await owner.api.delete(`/incentives/marketplace/listings/${a.id}`)).status).toBe(404);
      expect(ids((await owner.api.get('/incentives/marketplace/listings')).body.listings)).toEqual([b.id]);
    });

    it("keeps management apart: another app can neither read nor change a listing it does not own", async () => {
      const listing = await offer();
      expect((await game.api.get(`/incentives/marketplace/listings/${listing.id}`)).status).toBe(404);
      expect((await game.api.patch(`/incentives/marketplace/listings/${listing.id}`, { coinCost: 0 })).status).toBe(404);
      expect((await game.api.delete(`/incentives/marketplace/listings/${listing.id}`)).status).toBe(404);
      expect(ids((await game.api.get('/incentives/marketplace/listings?limit=100')).body.listings)).not.toContain(listing.id);
      expect((await shop.api.get(`/incentives/marketplace/listings/${listing.id}`)).body.listing.coinCost).toBe(20);
    });
  });

  describe('public listings', () => {
    it('shows every app the published, unexpired listings with codes left', async () => {
      const visible = await offer({ coinCost: 7, tokenCost: 1 });
      const hidden = await offer({ published: false });
      const soldOut = await offer({ quantity: 0 });
      const withdrawn = await offer();
      await shop.api.delete(`/incentives/marketplace/listings/${withdrawn.id}`);
      const fromGame = await offer({ coinCost: 3 }, game);

      for (const viewer of [shop, game, third]) {
        const seen = await publicIds(viewer);
        expect(seen).toEqual(expect.arrayContaining([visible.id, fromGame.id]));
        for (const id of [hidden.id, soldOut.id, withdrawn.id]) expect(seen).not.toContain(id);
      }
      const one = await third.api.get(`/incentives/marketplace/public/listings/${visible.id}`);
      expect(one.status).toBe(200);
      expect(one.body.listing).toEqual({
        id: visible.id,
        appId: shop.appId,
        title: expect.any(String),
        description: '',
        coinCost: 7,
        tokenCost: 1,
        quantity: -1,
        discount: { type: 'PERCENT', value: 15 },
        expiresAt: null,
        codeValidityDays: 90,
        createdAt: expect.stringMatching(ISO),
      });
      expect((await third.api.get(`/incentives/marketplace/public/listings/${hidden.id}`)).status).toBe(404);
      expect((await third.api.get(`/incentives/marketplace/public/listings/${withdrawn.id}`)).status).toBe(404);
      expect((await third.api.get('/incentives/marketplace/public/listings/lst_missing')).status).toBe(404);
      // Sold out, but still published: a shared link explains itself.
      expect((await third.api.get(`/incentives/marketplace/public/listings/${soldOut.id}`)).body.listing.quantity).toBe(0);
    });

    it('filters by cost and pages', async () => {
      const cheap = await offer({ coinCost: 1, tokenCost: 0 });
      const tokenHeavy = await offer({ coinCost: 1, tokenCost: 9 });
      const dear = await offer({ coinCost: 1_000_000 });
      const underTwo = await publicIds(third, 'maxCoinCost=2&limit=100');
      expect(underTwo).toEqual(expect.arrayContaining([cheap.id, tokenHeavy.id]));
      expect(underTwo).not.toContain(dear.id);
      const noTokens = await publicIds(third, 'maxCoinCost=2&maxTokenCost=0&limit=100');
      expect(noTokens).toContain(cheap.id);
      expect(noTokens).not.toContain(tokenHeavy.id);
      const page = await third.api.get('/incentives/marketplace/public/listings?limit=1&page=2');
      expect(page.status).toBe(200);
      expect(page.body.listings).toHaveLength(1);
      expect(page.body.pagination).toMatchObject({ page: 2, limit: 1 });
      expect(page.body.pagination.totalItems).toBeGreaterThanOrEqual(3);
      expect((await third.api.get('/incentives/marketplace/public/listings?maxCoinCost=-1')).status).toBe(400);
      expect((await third.api.get('/incentives/marketplace/public/listings?maxTokenCost=abc')).status).toBe(400);
    });

    it('drops a listing from the marketplace once it expires', async () => {
      const brief = await offer({ expiresAt: new Date(Date.now() + 1500).toISOString() });
      expect(await publicIds(third)).toContain(brief.id);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(await publicIds(third)).not.toContain(brief.id);
      const redeemer = user();
      await gameFaucet.give(redeemer, 100);
      const late = await game.api.post('/incentives/marketplace/redeem', { listingId: brief.id, userId: redeemer });
      expect([late.status, late.body.error?.code]).toEqual([422, 'ITEM_UNAVAILABLE']);
    });
  });

  describe('redeeming', () => {
    it("debits the calling app's user, takes one code and issues a unique MKT- code", async () => {
      const listing = await offer({ coinCost: 25, tokenCost: 1, quantity: 3, codeValidityDays: 10 });
      const gina = user('gina');
      await gameFaucet.give(gina, 40, 2);
      const res = await game.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: gina });
      expect(res.status).toBe(201);
      expect(res.body.redemption).toMatchObject({
        id: expect.stringMatching(/^mkr_/),
        listingId: listing.id,
        userId: gina,
        discountCode: expect.stringMatching(CODE),
        expiresAt: expect.stringMatching(ISO),
        createdAt: expect.stringMatching(ISO),
        status: 'ACTIVE',
        appId: game.appId,
        listingAppId: shop.appId,
        coinCost: 25,
        tokenCost: 1,
        discount: { type: 'PERCENT', value: 15 },
      });
      const validDays = (Date.parse(res.body.redemption.expiresAt) - Date.parse(res.body.redemption.createdAt)) / 86_400_000;
      expect(validDays).toBeCloseTo(10, 5);
      expect(res.body.balance).toMatchObject({ coins: 15, tokens: 1 });
      expect(await quantityOf(listing.id)).toBe(2);
      expect(await balanceMatchingLedger(game, gina)).toEqual({ coins: 15, tokens: 1, matches: true });

      const [event] = await waitForEvents('marketplace.redeemed', (e) => e.data.redemptionId === res.body.redemption.id, 1);
      expect(event).toMatchObject({
        appId: game.appId,
        data: {
          redemptionId: res.body.redemption.id,
          listingId: listing.id,
          listingAppId: shop.appId,
          userId: gina,
          discountCode: res.body.redemption.discountCode,
          expiresAt: res.body.redemption.expiresAt,
        },
      });
    });

    it('refuses with 422 and changes nothing when the user cannot pay or no code is left', async () => {
      const hal = user('hal');
      await gameFaucet.give(hal, 10);
      const dear = await offer({ coinCost: 11, quantity: 2 });
      const res = await game.api.post('/incentives/marketplace/redeem', { listingId: dear.id, userId: hal });
      expect([res.status, res.body.error?.code]).toEqual([422, 'INSUFFICIENT_BALANCE']);
      expect(await quantityOf(dear.id)).toBe(2);
      const gone = await offer({ coinCost: 1, quantity: 0 });
      const soldOut = await game.api.post('/incentives/marketplace/redeem', { listingId: gone.id, userId: hal });
      expect([soldOut.status, soldOut.body.error?.code]).toEqual([422, 'OUT_OF_STOCK']);
      expect(await balanceMatchingLedger(game, hal)).toEqual({ coins: 10, tokens: 0, matches: true });
    });

    it("answers 404 for listings it cannot see, 422 for its own unpublished one, and 400 for bad bodies", async () => {
      const hidden = await offer({ published: false, coinCost: 0 });
      expect((await game.api.post('/incentives/marketplace/redeem', { listingId: hidden.id, userId: 'u' })).status).toBe(404);
      const own = await shop.api.post('/incentives/marketplace/redeem', { listingId: hidden.id, userId: 'u' });
      expect([own.status, own.body.error?.code]).toEqual([422, 'ITEM_UNAVAILABLE']);
      expect((await game.api.post('/incentives/marketplace/redeem', { listingId: 'lst_missing', userId: 'u' })).status).toBe(404);
      expect((await game.api.post('/incentives/marketplace/redeem', { listingId: hidden.id })).status).toBe(400);
      expect((await game.api.post('/incentives/marketplace/redeem', { userId: 'u' })).status).toBe(400);
    });

    it('issues exactly the codes a listing has to users redeeming at once, each code unique', async () => {
      const listing = await offer({ coinCost: 5, quantity: 3 });
      const players = Array.from({ length: 12 }, () => user('crowd'));
      await Promise.all(players.map((p) => gameFaucet.give(p, 5)));
      const results = await Promise.all(players.map((userId) => game.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId })));
      const won = results.filter((r) => r.status === 201);
      expect(won).toHaveLength(3);
      expect(results.filter((r) => r.status === 422).map((r) => r.body.error.code)).toEqual(Array(9).fill('OUT_OF_STOCK'));
      expect(new Set(won.map((r) => r.body.redemption.discountCode)).size).toBe(3);
      expect(await quantityOf(listing.id)).toBe(0);
      for (const p of players) expect((await balanceMatchingLedger(game, p)).matches).toBe(true);
    });
  });

  describe('verification, redemption lists and settlement', () => {
    let listing: { id: string };
    let second: { id: string };
    let code: string;
    // The listings' owner here; shop is a bystander.
    let owner: TestApp;
    const settler = () => owner;
    const ivy = `ivy-${Date.now()}`;

    beforeAll(async () => {
      owner = await createTestApp('mkt settler');
      listing = await offer({ coinCost: 4, tokenCost: 1 }, owner);
      second = await offer({ coinCost: 6 }, owner);
      await gameFaucet.give(ivy, 100, 10);
      const first = await game.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: ivy });
      code = first.body.redemption.discountCode;
      await game.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: ivy });
      await game.api.post('/incentives/marketplace/redeem', { listingId: second.id, userId: ivy });
      const thirdFaucet = new CoinFaucet(third);
      await thirdFaucet.give('tess', 50);
      await third.api.post('/incentives/marketplace/redeem', { listingId: second.id, userId: 'tess' });
    });

    it('verifies a code for the redeeming app and for the listing owner, in any case and spacing', async () => {
      for (const [viewer, asTyped] of [
        [game, code],
        [settler(), code.toLowerCase()],
        [settler(), code.replace(/-/g, '')],
      ] as const) {
        const res = await viewer.api.get(`/incentives/marketplace/verify/${encodeURIComponent(asTyped)}`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          type: 'CODE',
          valid: true,
          code,
          listingId: listing.id,
          status: 'ACTIVE',
          redeemedAt: expect.stringMatching(ISO),
          expiresAt: expect.stringMatching(ISO),
          discount: { type: 'PERCENT', value: 15 },
          listingAppId: settler().appId,
        });
      }
    });

    it('never confirms a code to an app that is no party to it: the id is taken as a user id', async () => {
      const res = await shop.api.get(`/incentives/marketplace/verify/${code}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'USER', userId: code, balance: { coins: 0, tokens: 0 }, listings: [] });
    });

    it("answers a user id with the user's balance and the public listings it covers", async () => {
      const res = await game.api.get(`/incentives/marketplace/verify/${ivy}?limit=100`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ type: 'USER', userId: ivy, balance: { coins: 86, tokens: 8 } });
      const affordable = res.body.listings as Array<{ id: string; coinCost: number; tokenCost: number }>;
      expect(ids(affordable)).toEqual(expect.arrayContaining([listing.id, second.id]));
      for (const l of affordable) {
        expect(l.coinCost).toBeLessThanOrEqual(86);
        expect(l.tokenCost).toBeLessThanOrEqual(8);
      }
      expect(res.body.pagination).toMatchObject({ page: 1, limit: 100 });
      const broke = await game.api.get('/incentives/marketplace/verify/nobody-at-all');
      expect(broke.body).toMatchObject({ type: 'USER', balance: { coins: 0, tokens: 0 } });
      for (const l of broke.body.listings) expect([l.coinCost, l.tokenCost]).toEqual([0, 0]);
    });

    it('lists redemptions from either side, hiding user ids from the owner', async () => {
      const mine = await game.api.get(`/incentives/marketplace/redemptions?as=redeemer&userId=${ivy}`);
      expect(mine.status).toBe(200);
      expect(mine.body.pagination.totalItems).toBe(3);
      expect(mine.body.redemptions.every((r: { userId: string }) => r.userId === ivy)).toBe(true);
      const theirs = await settler().api.get('/incentives/marketplace/redemptions');
      expect(theirs.body.pagination.totalItems).toBe(4);
      expect(theirs.body.redemptions.map((r: { userId: string | null }) => r.userId)).toEqual([null, null, null, null]);
      const one = await settler().api.get(`/incentives/marketplace/redemptions?listingId=${listing.id}`);
      expect(one.body.pagination.totalItems).toBe(2);
      // A bystander sees none of it.
      expect((await shop.api.get(`/incentives/marketplace/redemptions?listingId=${listing.id}`)).body.pagination.totalItems).toBe(0);
      expect((await shop.api.get('/incentives/marketplace/redemptions?as=somebody')).status).toBe(400);
    });

    it('totals what each pair of apps owes the other, per app and per listing', async () => {
      const provider = await settler().api.get('/incentives/marketplace/settlements?as=provider');
      expect(provider.status).toBe(200);
      expect(provider.body.as).toBe('provider');
      expect(provider.body.totals).toEqual({ redemptions: 4, coins: 4 + 4 + 6 + 6, tokens: 2 });
      const byApp = Object.fromEntries(provider.body.counterparts.map((c: { appId: string }) => [c.appId, c]));
      expect(Object.keys(byApp).sort()).toEqual([game.appId, third.appId].sort());
      expect(byApp[game.appId].totals).toEqual({ redemptions: 3, coins: 14, tokens: 2 });
      expect(byApp[game.appId].listings).toEqual(
        expect.arrayContaining([
          { listingId: listing.id, title: expect.any(String), totals: { redemptions: 2, coins: 8, tokens: 2 } },
          { listingId: second.id, title: expect.any(String), totals: { redemptions: 1, coins: 6, tokens: 0 } },
        ]),
      );
      expect(byApp[third.appId].totals).toEqual({ redemptions: 1, coins: 6, tokens: 0 });

      const oneListing = await settler().api.get(`/incentives/marketplace/settlements?listingId=${listing.id}`);
      expect(oneListing.body.totals).toEqual({ redemptions: 2, coins: 8, tokens: 2 });

      const redeemer = await game.api.get('/incentives/marketplace/settlements?as=redeemer');
      const owed = redeemer.body.counterparts.find((c: { appId: string }) => c.appId === settler().appId);
      expect(owed.totals).toEqual({ redemptions: 3, coins: 14, tokens: 2 });
      const bystander = await shop.api.get(`/incentives/marketplace/settlements?listingId=${listing.id}`);
      expect(bystander.body).toEqual({ as: 'provider', totals: { redemptions: 0, coins: 0, tokens: 0 }, counterparts: [] });
    });
  });
});
