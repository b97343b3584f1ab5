import mongoose, { type Connection } from 'mongoose';
import { type AppName, type ProcessStack } from '@ris/stack';
import { ApiClient, e2eStack, type ApiResponse, type TestApp } from '@ris/testing';
import { CoinFaucet, balanceMatchingLedger } from './support/coin-balances';
import { ownStack, removeOwnStack } from './support/own-stack';

// A stack of its own (incentive and catalog-marketplace services and a
// gateway, own databases and stream), so that killing services here
// disturbs no other test file. Short lease and recovery interval: an
// interrupted redemption is settled within seconds.
describe('redemption recovery', () => {
  let stack: ProcessStack;
  let catalogDb: Connection;
  let app: TestApp;
  let faucet: CoinFaucet;
  let n = 0;
  const user = (name: string) => `${name}-${(n += 1)}`;

  beforeAll(async () => {
    stack = ownStack('rr', {
      apps: ['incentive-service', 'catalog-marketplace-service', 'gateway'],
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: {
        // Short, so that what a kill leaves is settled within the test, but room for a Debit on a
        // busy machine: with 1 s none of a burst's redemptions succeeded before the kill under load.
        'catalog-marketplace-service': { INCENTIVE_TIMEOUT_MS: '2500', REDEMPTION_LEASE_MS: '6000', RECOVERY_INTERVAL_MS: '500' },
      },
    });
    await stack.start();
    catalogDb = await mongoose.createConnection(e2eStack().mongodbUrl, { dbName: `${stack.options.dbPrefix}catalog_marketplace` }).asPromise();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'recovery' });
    app = { appId: created.body.app.id, apiKey: created.body.apiKey, api: new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey) };
    faucet = new CoinFaucet(app);
  }, 90_000);

  afterAll(async () => {
    await catalogDb?.close();
    await removeOwnStack(stack);
  });

  const kill = (service: AppName) => stack.stopApp(service, 'SIGKILL');
  const inventoryOf = async (itemId: string) => (await app.api.get(`/incentives/catalog/${itemId}`)).body.item.inventory as number;
  const createItem = async (inventory: number, coinCost: number) =>
    (await app.api.post('/incentives/catalog', { name: `Item ${(n += 1)}`, coinCost, inventory, published: true })).body.item as { id: string };

  /**
   * Redemptions sent one every 20 ms; the service dies (SIGKILL) once the
   * first has succeeded, so some finish before, some are cut off half-way
   * and the rest find it gone.
   */
  async function burstKilling(victim: AppName, itemId: string, buyers: string[]): Promise<ApiResponse[]> {
    let firstSuccess!: () => void;
    const succeeded = new Promise<void>((resolve) => (firstSuccess = resolve));
    const inFlight = buyers.map(async (userId, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 20));
      const res = await app.api.post('/incentives/redeem', { userId, itemId });
      if (res.status === 201) firstSuccess();
      return res;
    });
    await Promise.race([succeeded, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    await kill(victim);
    return Promise.all(inFlight);
  }

  /** Until the recovery pass has settled every redemption (none left open), as the service's own database tells. */
  async function settled(timeoutMs = 45_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const open = await Promise.all(
        ['redemptions', 'marketplace_redemptions'].map((c) => catalogDb.collection(c).countDocuments({ open: true })),
      );
      if (open[0] + open[1] === 0) return;
      if (Date.now() > deadline) throw new Error(`redemptions still open after ${timeoutMs} ms: ${open.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** Stock and coins add up: every unit gone is a PENDING redemption, paid for once; every other coin is where it was. */
  async function expectConsistent(itemId: string, stockBefore: number, buyers: string[], coins: number, cost: number, answers: ApiResponse[]) {
    const listed = await app.api.get(`/incentives/redemptions?itemId=${itemId}&limit=100`);
    const redeemed = new Map<string, number>();
    for (const r of listed.body.redemptions as Array<{ userId: string; status: string }>) {
      expect(r.status).toBe('PENDING');
      redeemed.set(r.userId, (redeemed.get(r.userId) ?? 0) + 1);
    }
    // Every 201 the callers saw is a redemption that stands.
    for (const answer of answers.filter((a) => a.status === 201)) expect(redeemed.get(answer.body.redemption.userId)).toBe(1);
    expect(await inventoryOf(itemId)).toBe(stockBefore - listed.body.pagination.totalItems);
    for (const buyer of buyers) {
      const { coins: left, matches } = await balanceMatchingLedger(app, buyer);
      expect([buyer, matches, left]).toEqual([buyer, true, coins - cost * (redeemed.get(buyer) ?? 0)]);
    }
  }

  it('answers 503 while the incentive service is down, and loses no stock or coins once it is back', async () => {
    const item = await createItem(5, 10);
    const listing = (
      await app.api.post('/incentives/marketplace/listings', { title: 'Down', coinCost: 10, quantity: 5, discount: { type: 'FIXED', value: 1 }, published: true })
    ).body.listing as { id: string };
    const ada = user('ada');
    await faucet.give(ada, 30);

    await kill('incentive-service');
    const catalog = await app.api.post('/incentives/redeem', { userId: ada, itemId: item.id });
    expect([catalog.status, catalog.body.error?.code]).toEqual([503, 'UNAVAILABLE']);
    const market = await app.api.post('/incentives/marketplace/redeem', { userId: ada, listingId: listing.id });
    expect(market.status).toBe(503);
    // The units are back at once; the coins wait for the service.
    expect(await inventoryOf(item.id)).toBe(5);
    expect((await app.api.get(`/incentives/marketplace/listings/${listing.id}`)).body.listing.quantity).toBe(5);

    await stack.startApp('incentive-service');
    await settled();
    await expectConsistent(item.id, 5, [ada], 30, 10, [catalog]);
    expect((await app.api.get(`/incentives/marketplace/redemptions?as=redeemer&userId=${ada}`)).body.pagination.totalItems).toBe(0);
    // And redeeming works again.
    expect((await app.api.post('/incentives/redeem', { userId: ada, itemId: item.id })).status).toBe(201);
  }, 90_000);

  it('settles every redemption in flight when the incentive service is killed in the middle of a burst', async () => {
    const item = await createItem(100, 10);
    const buyers = Array.from({ length: 24 }, () => user('burst'));
    await Promise.all(buyers.map((b) => faucet.give(b, 10)));

    const answers = await burstKilling('incentive-service', item.id, buyers);
    for (const a of answers) expect([201, 503]).toContain(a.status);
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(0);

    await stack.startApp('incentive-service');
    await settled();
    await expectConsistent(item.id, 100, buyers, 10, 10, answers);
  }, 90_000);

  it('finishes or undoes every redemption in flight when the catalog service itself is killed', async () => {
    const item = await createItem(100, 10);
    const buyers = Array.from({ length: 24 }, () => user('crash'));
    await Promise.all(buyers.map((b) => faucet.give(b, 10)));

    const answers = await burstKilling('catalog-marketplace-service', item.id, buyers);
    // Cut-off requests fail however the gateway reports a dropped connection; what matters is what they leave behind.
    expect(answers.filter((a) => a.status === 201).length).toBeGreaterThan(0);

    // The recovery pass runs at start-up, and again when the dead requests' leases run out.
    await stack.startApp('catalog-marketplace-service');
    await settled();
    await expectConsistent(item.id, 100, buyers, 10, 10, answers);
  }, 90_000);
});
