import mongoose from 'mongoose';
import { type AppName, type ProcessStack } from '@ris/stack';
import { ApiClient, e2eStack, type ApiResponse, type TestApp } from '@ris/testing';
import { CoinFaucet, balanceMatchingLedger } from './support/coin-balances';
import { ownStack, removeOwnStack } from './support/own-stack';

// Fault injection for every POST that moves value, as an outside tester
// would do it: requests with an Idempotency-Key each are in flight when the
// service behind them is killed with SIGKILL; it is started again, and
// every request that did not get a final answer is sent again with the same
// key until it does. Whatever the kill cut short (before, during or after
// the service's writes, or after them but before the answer), each key must
// have had exactly one effect: one purchase, one conversion and its
// rewards, one claim code and one payment, one event's coins. Each case runs
// two rounds of burst and kill, so that requests are caught at many points.
describe('retried POSTs after the service was killed mid-request', () => {
  let stack: ProcessStack;
  let app: TestApp;
  let faucet: CoinFaucet;
  let run = 0;
  const name = (prefix: string) => `${prefix}-${(run += 1)}`;

  beforeAll(async () => {
    stack = ownStack('kill', {
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: {
        // Half-done work the requests leave is settled within seconds.
        'catalog-marketplace-service': { RECOVERY_INTERVAL_MS: '500' },
        'referral-service': { RECOVERY_INTERVAL_MS: '1000' },
        'reward-service': { RECOVERY_INTERVAL_MS: '1000' },
      },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'kill' });
    app = { appId: created.body.app.id, apiKey: created.body.apiKey, api: new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey) };
    faucet = new CoinFaucet(app);
  }, 120_000);

  afterAll(() => removeOwnStack(stack));

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Answers a retry may change: the service was down (503), or still busy with the key (409 CONFLICT), or rate limited. */
  const isFinal = (res: ApiResponse) => res.status < 500 && res.status !== 429 && !(res.status === 409 && res.body?.error?.code === 'CONFLICT');

  /** Sends a request again with its key until the answer is final. */
  async function untilFinal(send: () => Promise<ApiResponse>, timeoutMs = 60_000): Promise<ApiResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await send().catch((err: unknown): ApiResponse => ({ status: 599, headers: new Headers(), body: { error: { code: String(err) } } }));
      if (isFinal(res)) return res;
      if (Date.now() > deadline) throw new Error(`no final answer after ${timeoutMs} ms: ${res.status} ${JSON.stringify(res.body)}`);
      await pause(200);
    }
  }

  /**
   * `requests` sent one every `spacingMs`, each with a key of its own; `victim` is
   * killed once the first has succeeded, and started again once all have
   * answered; then every request without a final answer is sent again with
   * its key until it has one. Returns the final answers (by request) and
   * how many first answers were not final (the kill's reach).
   */
  async function burstKillRetry(victim: AppName, requests: Array<(key: string) => Promise<ApiResponse>>, spacingMs = 10) {
    const keys = requests.map((_, i) => `${name('key')}-${i}`);
    let firstSuccess!: () => void;
    const succeeded = new Promise<void>((resolve) => (firstSuccess = resolve));
    const first = requests.map(async (send, i) => {
      await pause(i * spacingMs);
      const res = await send(keys[i]).catch((err: unknown): ApiResponse => ({ status: 599, headers: new Headers(), body: { error: { code: String(err) } } }));
      if (res.status < 300) firstSuccess();
      return res;
    });
    // (Unref'd: a timer left running would keep Jest from exiting.)
    await Promise.race([succeeded, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    await stack.stopApp(victim, 'SIGKILL');
    const firstAnswers = await Promise.all(first);
    await stack.startApp(victim);
    const final = await Promise.all(requests.map((send, i) => (isFinal(firstAnswers[i]) ? firstAnswers[i] : untilFinal(() => send(keys[i])))));
    return { final, cut: firstAnswers.filter((res) => !isFinal(res)).length };
  }

  it('catalog and marketplace redemptions: one purchase per key', async () => {
    const item = (await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 10, inventory: 1000, published: true })).body.item;
    const listing = (
      await app.api.post('/incentives/marketplace/listings', { title: 'Tea', coinCost: 10, quantity: 1000, discount: { type: 'FIXED', value: 5 }, published: true })
    ).body.listing;
    let cut = 0;
    for (const round of [1, 2]) {
      // 100 coins each: a second purchase would go through, so a double charge would show.
      const buyers = Array.from({ length: 30 }, () => name(`buyer${round}`));
      await Promise.all(buyers.map((b) => faucet.give(b, 100)));
      const outcome = await burstKillRetry(
        'catalog-marketplace-service',
        buyers.map((userId, i) => (key: string) =>
          i % 2
            ? app.api.post('/incentives/redeem', { userId, itemId: item.id }, { 'idempotency-key': key })
            : app.api.post('/incentives/marketplace/redeem', { userId, listingId: listing.id }, { 'idempotency-key': key }),
        ),
      );
      cut += outcome.cut;
      for (const res of outcome.final) expect(res.status).toBe(201);
      for (const [i, userId] of buyers.entries()) {
        const path = i % 2 ? `/incentives/redemptions?userId=${userId}` : `/incentives/marketplace/redemptions?as=redeemer&userId=${userId}`;
        const made = (await app.api.get(path)).body;
        expect([userId, made.pagination.totalItems]).toEqual([userId, 1]);
        expect(made.redemptions[0].id).toBe(outcome.final[i].body.redemption.id);
        const balance = await balanceMatchingLedger(app, userId);
        expect([userId, balance.coins, balance.matches]).toEqual([userId, 90, true]);
      }
    }
    expect(cut).toBeGreaterThan(0);
    const catalogSold = (await app.api.get(`/incentives/redemptions?itemId=${item.id}`)).body.pagination.totalItems;
    expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.inventory).toBe(1000 - catalogSold);
    const marketSold = (await app.api.get(`/incentives/marketplace/redemptions?listingId=${listing.id}`)).body.pagination.totalItems;
    expect((await app.api.get(`/incentives/marketplace/listings/${listing.id}`)).body.listing.quantity).toBe(1000 - marketSold);
  }, 240_000);

  /**
   * The window a burst only hits by chance, hit on purpose: the service
   * kills itself (RIS_CRASH_AT) right after the write that makes the
   * request's change, before answering; the caller sees a 5xx, the service
   * is started again, and the retry with the same key must answer that very
   * change.
   */
  async function diesAfterItsWrite(service: AppName, point: string, send: (key: string) => Promise<ApiResponse>) {
    const idempotencyKey = name('after-write');
    await stack.stopApp(service);
    await stack.startApp(service, { RIS_CRASH_AT: point });
    const first = await send(idempotencyKey);
    expect((await stack.lastExit(service)).signal).toBe('SIGKILL');
    expect(first.status).toBeGreaterThanOrEqual(500);
    await stack.startApp(service);
    return untilFinal(() => send(idempotencyKey));
  }

  it('answers the retry of a request whose service died right after its write with that change, made once', async () => {
    const item = (await app.api.post('/incentives/catalog', { name: 'Pen', coinCost: 10, inventory: 10, published: true })).body.item;
    const buyer = name('after-write-buyer');
    await faucet.give(buyer, 100);
    const redeemed = await diesAfterItsWrite('catalog-marketplace-service', 'redemption.closed', (key) =>
      app.api.post('/incentives/redeem', { userId: buyer, itemId: item.id }, { 'idempotency-key': key }),
    );
    expect(redeemed.status).toBe(201);
    expect((await app.api.get(`/incentives/redemptions?userId=${buyer}`)).body.redemptions.map((r: { id: string }) => r.id)).toEqual([redeemed.body.redemption.id]);
    expect(await balanceMatchingLedger(app, buyer)).toMatchObject({ coins: 90, matches: true });
    expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.inventory).toBe(9);

    const campaign = (await app.api.post('/campaigns', { name: 'After write', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' }, fraud: { flagThreshold: 100 } }))
      .body.campaign;
    const referral = (await app.api.post('/referrals', { campaignId: campaign.id, referrerId: name('after-write-referrer') })).body;
    const referee = name('after-write-referee');
    const converted = await diesAfterItsWrite('referral-service', 'conversion.created', (key) =>
      app.api.post('/conversions', { referralCode: referral.referralCode, refereeId: referee }, { 'idempotency-key': key }),
    );
    expect([converted.status, converted.body.rewardCreated]).toEqual([201, true]);
    expect((await app.api.get(`/conversions?referralCode=${referral.referralCode}`)).body.conversions).toHaveLength(1);

    const rewardId = converted.body.rewards[0].rewardId as string;
    const paid = await diesAfterItsWrite('reward-service', 'reward.moved', (key) =>
      app.api.post('/rewards/redeem', { rewardId, userId: converted.body.referrerId }, { 'idempotency-key': key }),
    );
    expect([paid.status, paid.body.reward.status]).toEqual([200, 'PAID']);

    await app.api.post('/incentives/actions', { key: 'after-write', name: 'After write', type: 'STANDARD', coins: 3 });
    const player = name('after-write-player');
    const recorded = await diesAfterItsWrite('incentive-service', 'incentive.event.processed', (key) =>
      app.api.post('/incentives/events', { userId: player, actionKey: 'after-write' }, { 'idempotency-key': key }),
    );
    expect([recorded.status, recorded.body.duplicate]).toEqual([201, false]);
    expect(await balanceMatchingLedger(app, player)).toMatchObject({ coins: 3, matches: true });
  }, 180_000);

  it('frees the stock a killed process held within seconds, not after its 30 s lease', async () => {
    const item = (await app.api.post('/incentives/catalog', { name: 'Last ones', coinCost: 10, inventory: 3, published: true })).body.item;
    const buyers = Array.from({ length: 12 }, () => name('held'));
    await Promise.all(buyers.map((b) => faucet.give(b, 10)));
    let firstSuccess!: () => void;
    const succeeded = new Promise<void>((resolve) => (firstSuccess = resolve));
    const burst = buyers.map(async (userId, i) => {
      await pause(i * 5);
      const res = await app.api.post('/incentives/redeem', { userId, itemId: item.id }).catch(() => undefined);
      if (res?.status === 201) firstSuccess();
    });
    await Promise.race([succeeded, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    await stack.stopApp('catalog-marketplace-service', 'SIGKILL');
    const killedAt = Date.now();
    await Promise.all(burst);
    await stack.startApp('catalog-marketplace-service');
    // No request is retried: only the service's own recovery frees what the dead process held.
    const db = await mongoose.createConnection(e2eStack().mongodbUrl, { dbName: `${stack.options.dbPrefix}catalog_marketplace` }).asPromise();
    try {
      let open = -1;
      while (Date.now() - killedAt < 30_000) {
        open = await db.collection('redemptions').countDocuments({ itemId: item.id, open: true });
        const held = (await db.collection('catalog_items').findOne({ _id: item.id as never }))?.stockHolds?.length ?? 0;
        if (open === 0 && held === 0) break;
        await pause(100);
      }
      const freedAfterMs = Date.now() - killedAt;
      process.stdout.write(`stock held by the killed process freed ${freedAfterMs} ms after the kill\n`);
      expect(open).toBe(0);
      expect(freedAfterMs).toBeLessThan(15_000);
    } finally {
      await db.close();
    }
    const sold = (await app.api.get(`/incentives/redemptions?itemId=${item.id}`)).body.pagination.totalItems;
    expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.inventory).toBe(3 - sold);
  }, 120_000);

  it('conversions: one conversion and one set of rewards per key', async () => {
    const campaign = (
      await app.api.post('/campaigns', {
        name: 'Kill',
        referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
        refereeReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
        fraud: { flagThreshold: 100 },
      })
    ).body.campaign;
    let cut = 0;
    for (const round of [1, 2]) {
      const referrers = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const referrerId = name(`referrer${round}`);
          const referral = (await app.api.post('/referrals', { campaignId: campaign.id, referrerId })).body;
          return { referrerId, code: referral.referralCode as string };
        }),
      );
      const referees = Array.from({ length: 30 }, (_, i) => ({ refereeId: name(`referee${round}`), referrer: referrers[i % referrers.length] }));
      const outcome = await burstKillRetry(
        'referral-service',
        referees.map(({ refereeId, referrer }) => (key: string) =>
          app.api.post('/conversions', { referralCode: referrer.code, refereeId, amount: 20 }, { 'idempotency-key': key }),
        ),
      );
      cut += outcome.cut;
      for (const [i, { refereeId }] of referees.entries()) {
        const answer = outcome.final[i];
        expect([refereeId, answer.status]).toEqual([refereeId, 201]);
        expect(answer.body.rewards).toHaveLength(2);
        // The referee's own reward: one, of the conversion the answers name.
        const refereeRewards = (await app.api.get(`/rewards?userId=${refereeId}`)).body.rewards;
        expect([refereeId, refereeRewards.map((r: { conversionId: string }) => r.conversionId)]).toEqual([refereeId, [answer.body.conversionId]]);
      }
      // Each referrer: one conversion record and one reward per referee it brought.
      for (const referrer of referrers) {
        const brought = referees.filter((r) => r.referrer === referrer).length;
        const records = (await app.api.get(`/conversions?referralCode=${referrer.code}&limit=100`)).body.conversions;
        const rewards = (await app.api.get(`/rewards?userId=${referrer.referrerId}&limit=100`)).body.rewards;
        expect([referrer.referrerId, records.length, rewards.length]).toEqual([referrer.referrerId, brought, brought]);
      }
    }
    expect(cut).toBeGreaterThan(0);
  }, 240_000);

  it('reward claims and redeems: one code and one payment per reward', async () => {
    const campaign = (await app.api.post('/campaigns', { name: 'Claims', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' }, fraud: { flagThreshold: 100 } }))
      .body.campaign;
    let cut = 0;
    for (const round of [1, 2]) {
      const rewards: Array<{ id: string; userId: string }> = [];
      for (let i = 0; i < 15; i += 1) {
        const referral = (await app.api.post('/referrals', { campaignId: campaign.id, referrerId: name(`claimer${round}`) })).body;
        const conversion = (await app.api.post('/conversions', { referralCode: referral.referralCode, refereeId: name('friend') })).body;
        rewards.push({ id: conversion.rewards[0].rewardId, userId: conversion.referrerId });
      }
      // For each reward: claim, then redeem, each with a key of its own; a retry sends both again with the same keys.
      const outcome = await burstKillRetry(
        'reward-service',
        rewards.map((reward) => async (key: string) => {
          const claim = await app.api.post(`/rewards/${reward.id}/claim`, undefined, { 'idempotency-key': `${key}-claim` });
          if (claim.status !== 200) return claim;
          return app.api.post('/rewards/redeem', { rewardId: reward.id, userId: reward.userId }, { 'idempotency-key': `${key}-redeem` });
        }),
      );
      cut += outcome.cut;
      for (const [i, reward] of rewards.entries()) {
        expect([reward.id, outcome.final[i].status]).toEqual([reward.id, 200]);
        expect(outcome.final[i].body.reward.status).toBe('PAID');
        const stored = (await app.api.get(`/rewards/${reward.id}`)).body.reward;
        expect(stored.status).toBe('PAID');
        expect(stored.discountCode).toBe(outcome.final[i].body.reward.discountCode);
        // Paid once: the user's totals count it once.
        const stats = (await app.api.get(`/users/${reward.userId}/stats?campaignId=${campaign.id}`)).body;
        expect([reward.userId, stats.rewardsEarned, stats.rewardsPending]).toEqual([reward.userId, 10, 0]);
      }
    }
    expect(cut).toBeGreaterThan(0);
  }, 240_000);

  it('incentive events without an idempotencyKey: one event per request key', async () => {
    await app.api.post('/incentives/actions', { key: 'kill-event', name: 'Kill event', type: 'STANDARD', coins: 7 });
    let cut = 0;
    for (const round of [1, 2]) {
      const users = Array.from({ length: 40 }, () => name(`eventful${round}`));
      const outcome = await burstKillRetry(
        'incentive-service',
        users.map((userId) => (key: string) => app.api.post('/incentives/events', { userId, actionKey: 'kill-event' }, { 'idempotency-key': key })),
      );
      cut += outcome.cut;
      for (const [i, userId] of users.entries()) {
        expect([userId, outcome.final[i].status, outcome.final[i].body.duplicate]).toEqual([userId, 201, false]);
        const balance = await balanceMatchingLedger(app, userId);
        expect([userId, balance.coins, balance.matches]).toEqual([userId, 7, true]);
        expect((await app.api.get(`/incentives/events?userId=${userId}`)).body.pagination.totalItems).toBe(1);
      }
    }
    expect(cut).toBeGreaterThan(0);
  }, 240_000);

  it('incentive events racing their duplicates, beside keyless ones: no key applied twice, no keyless event lost or doubled', async () => {
    await app.api.post('/incentives/actions', { key: 'race-kill', name: 'Race kill', type: 'STANDARD', coins: 3 });
    let cut = 0;
    for (const round of [1, 2]) {
      const users = Array.from({ length: 4 }, () => name(`racer${round}`));
      // As raceRound (support/event-races.ts): three shared keys per user, every fifth request keyless, and every
      // request with an Idempotency-Key of its own, so a cut one can be sent again.
      const requests = Array.from({ length: 80 }, (_, i) => ({ userId: users[i % users.length], idempotencyKey: i % 5 === 4 ? null : `race-${round}-${i % 3}` }));
      const outcome = await burstKillRetry(
        'incentive-service',
        requests.map(({ userId, idempotencyKey }) => (key: string) =>
          app.api.post('/incentives/events', { userId, actionKey: 'race-kill', ...(idempotencyKey ? { idempotencyKey } : {}) }, { 'idempotency-key': key }),
        ),
        3,
      );
      cut += outcome.cut;
      const byKey = new Map<string, Set<string>>();
      for (const [i, { userId, idempotencyKey }] of requests.entries()) {
        const answer = outcome.final[i];
        expect([i, answer.status]).toEqual([i, idempotencyKey && answer.body.duplicate ? 200 : 201]);
        if (idempotencyKey) byKey.set(`${userId}/${idempotencyKey}`, (byKey.get(`${userId}/${idempotencyKey}`) ?? new Set()).add(answer.body.event.id));
        else expect(answer.body.duplicate).toBe(false);
      }
      // Every answer of a key names one event.
      for (const [key, ids] of byKey) expect([key, ids.size]).toEqual([key, 1]);
      for (const userId of users) {
        const expected = [...byKey.keys()].filter((k) => k.startsWith(`${userId}/`)).length + requests.filter((r) => r.userId === userId && !r.idempotencyKey).length;
        expect([userId, (await app.api.get(`/incentives/events?userId=${userId}&limit=100`)).body.pagination.totalItems]).toEqual([userId, expected]);
        const balance = await balanceMatchingLedger(app, userId);
        expect([userId, balance.coins, balance.matches]).toEqual([userId, expected * 3, true]);
      }
    }
    expect(cut).toBeGreaterThan(0);
  }, 240_000);
});
