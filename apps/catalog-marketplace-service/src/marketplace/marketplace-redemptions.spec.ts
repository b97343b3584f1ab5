import type { RecoveryPass } from '../saga/recovery-pass';
import { catalogMarketplaceOnTestDatabase, reasonOf, type CatalogMarketplaceOnTestDatabase } from '../testing/catalog-marketplace-on-test-database';
import type { FakeBalanceAccount } from '../testing/fake-balance-account';
import type { Listings } from './listings';
import type { MarketplaceRedemptions } from './marketplace-redemptions';
import { verifyMarketplaceId } from './marketplace-verify';
import type { Settlements } from './settlements';

// Marketplace redemptions against the real development database: the
// stock belongs to the listing's owner (another app than the redeemer's),
// which the saga, the recovery sweep, verification and settlement must all
// respect.
describe('marketplace redemptions', () => {
  const shop = 'app_shop';
  const game = 'app_game';
  let service: CatalogMarketplaceOnTestDatabase;
  let stored: CatalogMarketplaceOnTestDatabase['stored'];
  let listings: Listings;
  let account: FakeBalanceAccount;
  let redemptions: MarketplaceRedemptions;
  let settlements: Settlements;
  let recovery: RecoveryPass;
  let n = 0;
  const user = () => `player_${(n += 1)}`;
  const page = { page: 1, limit: 25 };

  beforeAll(async () => {
    service = await catalogMarketplaceOnTestDatabase('marketplace_saga');
    ({ stored, account } = service);
    ({ listings, marketplaceRedemptions: redemptions, settlements, recovery } = service.modules);
  });

  afterAll(() => service.stop());

  const offer = (quantity: number, coinCost = 10) =>
    listings.create(shop, { title: `Offer ${(n += 1)}`, coinCost, quantity, discount: { type: 'PERCENT', value: 20 }, published: true });
  const listing = async (id: string) => (await stored.listings.findOne(shop, { _id: id }))!;

  it("takes the owner's stock for another app's user", async () => {
    const l = await offer(2);
    const ann = user();
    account.give(ann, 15);
    const { redemption, balance } = await redemptions.redeem(game, l._id, ann);
    expect(redemption).toMatchObject({ appId: game, listingAppId: shop, userId: ann, state: 'CONFIRMED', stockTaken: true });
    expect(redemption.discountCode).toMatch(/^MKT-/);
    expect(balance?.coins).toBe(5);
    expect(await listing(l._id)).toMatchObject({ quantity: 1, stockHolds: [] });
    await recovery.runOnce();
    expect(await listing(l._id)).toMatchObject({ quantity: 1, stockHolds: [], stockMarked: false });
  });

  it("gives the owner's unit back when a redemption is abandoned", async () => {
    const l = await offer(2);
    const ben = user();
    account.give(ben, 10);
    account.mode = 'down';
    await expect(redemptions.redeem(game, l._id, ben).catch(reasonOf)).resolves.toBe('UNAVAILABLE');
    account.mode = 'up';
    expect(await listing(l._id)).toMatchObject({ quantity: 2, stockHolds: [] });
    await recovery.runOnce();
    const [record] = await stored.marketplaceRedemptions.find(game, { userId: ben });
    expect(record).toMatchObject({ state: 'FAILED', open: false });
    expect(account.of(ben).coins).toBe(10);
  });

  it('hides what is not public from other apps and refuses what cannot be redeemed', async () => {
    const hidden = await listings.create(shop, { title: 'Hidden', coinCost: 1, discount: { type: 'FIXED', value: 2 } });
    await expect(redemptions.redeem(game, hidden._id, user()).catch(reasonOf)).resolves.toBe('NOT_FOUND');
    await expect(redemptions.redeem(shop, hidden._id, user()).catch(reasonOf)).resolves.toBe('ITEM_UNAVAILABLE');
    const gone = await offer(0);
    await expect(redemptions.redeem(game, gone._id, user()).catch(reasonOf)).resolves.toBe('OUT_OF_STOCK');
    expect((await listings.publicPage(page)).items.map((x) => x._id)).not.toContain(hidden._id);
  });

  it('verifies a code only for the two apps it concerns', async () => {
    const l = await offer(-1, 3);
    const cat = user();
    account.give(cat, 10);
    const { redemption } = await redemptions.redeem(game, l._id, cat);
    const deps = { redemptions, listings, account };
    for (const app of [game, shop]) {
      const verified = await verifyMarketplaceId(deps, app, redemption.discountCode.toLowerCase(), page);
      expect(verified).toMatchObject({ type: 'CODE', valid: true, redemption: { _id: redemption._id } });
    }
    const stranger = await verifyMarketplaceId(deps, 'app_other', redemption.discountCode, page);
    expect(stranger).toMatchObject({ type: 'USER', userId: redemption.discountCode, balance: { coins: 0, tokens: 0 } });
    const asUser = await verifyMarketplaceId(deps, game, cat, page);
    expect(asUser.type).toBe('USER');
    if (asUser.type === 'USER') {
      expect(asUser.balance.coins).toBe(7);
      for (const affordable of asUser.listings.items) expect(affordable.coinCost).toBeLessThanOrEqual(7);
      expect(asUser.listings.items.map((x) => x._id)).toContain(l._id);
    }
  });

  it('settles per counterpart app and listing, from either side, counting only issued codes', async () => {
    const view = await settlements.view(shop, 'PROVIDER');
    // The owner's side, across the redeeming apps.
    const issuedToOthers = stored.marketplaceRedemptions.model.find({ listingAppId: shop, state: 'CONFIRMED' }).lean().exec();
    const issued = (await issuedToOthers).length;
    expect(view.totals.redemptions).toBe(issued);
    expect(view.counterparts.map((c) => c.appId)).toEqual([game]);
    const coins = (await issuedToOthers).reduce((sum, r) => sum + r.coinCost, 0);
    expect(view.totals.coins).toBe(coins);
    expect(view.counterparts[0].listings.reduce((sum, l) => sum + l.totals.redemptions, 0)).toBe(issued);
    const mirror = await settlements.view(game, 'REDEEMER');
    expect(mirror.counterparts.map((c) => [c.appId, c.totals])).toEqual([[shop, view.totals]]);
    expect((await settlements.view('app_other', 'PROVIDER')).counterparts).toEqual([]);
  });
});
