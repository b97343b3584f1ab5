import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import type { ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, e2eStack, eventually, type ApiResponse } from '@ris/testing';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';
import { ownStack, removeOwnStack } from './support/own-stack';
import { expectStatus } from './support/referral-scenario';

const DAY_MS = 86_400_000;

// Coins that expire, coins that stay pending, and events taken back, on a
// stack of its own whose clock the test moves (RIS_TEST_CLOCK_FILE: days pass
// by writing a file, never by sleeping). The dues pass runs every 300 ms.
// The incentive service is killed here (RIS_CRASH_AT, SIGKILL) during the
// pass, which no other test file may see. The clock only moves forward.
describe('expiry, pending credits and event reversals, with the clock moved and the incentive service killed', () => {
  let stack: ProcessStack;
  let api: ApiClient;
  let receiver: WebhookReceiver;
  let clockDir: string;
  let clockFile: string;
  let offsetMs = 0;
  let incentiveDb: Connection;
  let n = 0;
  const user = (name: string) => `${name}-${(n += 1)}`;

  /**
   * Moves the services' clock on by `days` and, unless told not to, waits until the incentive service reads it
   * (it reads the file at most every 50 ms): a probe streak's current day is the moved clock's.
   */
  async function moveClock(days: number, { confirm = true } = {}): Promise<void> {
    offsetMs += days * DAY_MS;
    writeFileSync(clockFile, String(offsetMs));
    if (!confirm) return;
    const today = () => new Date(Math.floor((Date.now() + offsetMs) / DAY_MS) * DAY_MS).toISOString();
    await eventually(
      async () => (await api.get('/incentives/streaks/clock-probe')).body.streaks?.find((p: { key: string }) => p.key === 'clock_probe')?.periodStart,
      (start) => start === today(),
      10_000,
    );
  }

  type Balance = { coins: number; tokens: number; pendingCoins: number; pendingTokens: number; debtCoins: number; debtTokens: number; expiring: Array<{ currency: string; amount: number; expiresAt: string }> };
  const balanceOf = async (userId: string) => expectStatus(await api.get(`/incentives/balances/${userId}`), [200], 'balance').body.balance as Balance;
  const event = async (userId: string, actionKey: string): Promise<ApiResponse> =>
    expectStatus(await api.post('/incentives/events', { userId, actionKey }), [201], `event ${actionKey} of ${userId}`);
  const adjust = async (userId: string, coins: number) =>
    expectStatus(await api.post(`/incentives/balances/${userId}/adjustments`, { coins, note: 'test' }), [201], 'adjustment');
  const transactions = async (userId: string) =>
    expectStatus(await api.get(`/incentives/balances/${userId}/transactions?limit=100`), [200], 'transactions').body.transactions as Array<{
      reason: string;
      cause: string;
      coins: number;
      pendingCoins: number;
      sourceId: string;
      debt: { coins: number } | null;
      debtRepaid: { coins: number } | null;
      balanceAfter: { coins: number };
    }>;
  const agrees = async (userId: string) => {
    const agreement = await ledgerAgreesWithBalance(api, userId);
    expect([agreement.totals, agreement.gapless]).toEqual([agreement.balance, true]);
  };

  beforeAll(async () => {
    clockDir = mkdtempSync(join(tmpdir(), 'ris-clock-'));
    clockFile = join(clockDir, 'offset-ms');
    writeFileSync(clockFile, '0');
    receiver = await WebhookReceiver.start();
    stack = ownStack('exp', {
      apps: ['incentive-service', 'catalog-marketplace-service', 'webhook-service', 'gateway'],
      env: { RIS_TEST_CLOCK_FILE: clockFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: { 'incentive-service': { DUES_PASS_INTERVAL_MS: '300', STREAK_PASS_INTERVAL_MS: '300', RECOVERY_INTERVAL_MS: '500' } },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'expiry' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
    for (const action of [
      { key: 'earn', name: 'Earn', coins: 10, xp: 5 },
      { key: 'purchase', name: 'Purchase', coins: 100, tokens: 2, xp: 20, pendingDays: 14 },
      { key: 'big', name: 'Big', coins: 50, xp: 30 },
    ]) {
      expectStatus(await api.post('/incentives/actions', { type: 'STANDARD', ...action }), [201], 'action');
    }
    expectStatus(await api.post('/webhooks', { url: receiver.url('/hooks'), events: ['COINS_EXPIRED', 'EVENT_REVERSED'] }), [201], 'webhook');
    // A streak no event extends: its current period shows which day the service's clock reads.
    expectStatus(await api.post('/incentives/actions', { key: 'clock_probe', name: 'Clock probe', type: 'STANDARD' }), [201], 'probe action');
    expectStatus(await api.post('/incentives/streaks/definitions', { key: 'clock_probe', name: 'Clock probe', period: 'DAILY', actionKeys: ['clock_probe'] }), [201], 'probe');
    incentiveDb = await mongoose.createConnection(e2eStack().mongodbUrl, { dbName: `${stack.options.dbPrefix}incentive` }).asPromise();
  }, 120_000);

  afterAll(async () => {
    await incentiveDb?.close();
    await removeOwnStack(stack);
    await receiver?.close();
    if (clockDir) rmSync(clockDir, { recursive: true, force: true });
  });

  it('expires coins by lot, the oldest spent first, once, with the balance equal to its ledger', async () => {
    expect((await api.put('/incentives/settings', { coinExpiryDays: 0 })).status).toBe(400);
    const settings = expectStatus(await api.put('/incentives/settings', { coinExpiryDays: 10 }), [200], 'settings').body.settings;
    expect(settings).toMatchObject({ coinExpiryDays: 10, tokenExpiryDays: null });
    const ana = user('ana');
    for (let i = 0; i < 3; i += 1) await event(ana, 'earn');
    await moveClock(3);
    await event(ana, 'big');
    // 15 spent: taken from the oldest lot (30 earned on day 0), which keeps 15.
    await adjust(ana, -15);
    const before = await balanceOf(ana);
    expect(before.coins).toBe(65);
    expect(before.expiring.map((e) => [e.currency, e.amount])).toEqual([
      ['COINS', 15],
      ['COINS', 50],
    ]);
    // Day 0's lot lapses at the end of day 10: on day 11 the pass has expired what is left of it.
    await moveClock(8.5);
    const lapsed = await eventually(() => balanceOf(ana), (b) => b.coins === 50, 10_000);
    expect(lapsed.expiring.map((e) => e.amount)).toEqual([50]);
    const expiry = (await transactions(ana)).filter((t) => t.reason === 'EXPIRY');
    expect(expiry).toEqual([expect.objectContaining({ cause: 'EXPIRY', coins: -15 })]);
    const [hook] = await receiver.waitFor((r) => r.body.includes(ana) && JSON.parse(r.body).event === 'COINS_EXPIRED');
    expect(JSON.parse(hook.body).data).toMatchObject({ userId: ana, coins: 15, tokens: 0 });
    await agrees(ana);
    // Stats count what expired.
    const from = new Date(Date.now() + offsetMs - 30 * DAY_MS).toISOString();
    const to = new Date(Date.now() + offsetMs + DAY_MS).toISOString();
    const stats = expectStatus(await api.get(`/incentives/stats/timeseries?interval=day&from=${from}&to=${to}`), [200], 'stats').body;
    expect(stats.totals.coinsExpired).toBeGreaterThanOrEqual(15);
    await expect(api.put('/incentives/settings', { coinExpiryDays: null })).resolves.toMatchObject({ status: 200 });
  });

  it('keeps an action\u2019s coins pending until its window ends, then releases them, unless the event is reversed first', async () => {
    const bea = user('bea');
    const bought = await event(bea, 'purchase');
    expect(bought.body.rewarded).toEqual({ coins: 100, xp: 20, tokens: 2 });
    expect(bought.body.pendingUntil).toEqual(expect.stringMatching(/Z$/));
    expect(bought.body.balance).toMatchObject({ coins: 0, tokens: 0, xp: 20 });
    expect(await balanceOf(bea)).toMatchObject({ coins: 0, pendingCoins: 100, pendingTokens: 2 });
    // Pending coins are not spendable.
    expect((await api.post(`/incentives/balances/${bea}/adjustments`, { coins: -1, note: 'spend' })).status).toBe(422);

    // A second purchase is reversed (a return) inside the window: its credit never becomes available.
    const returned = await event(bea, 'purchase');
    const reversed = expectStatus(await api.post(`/incentives/events/${returned.body.event.id}/reverse`, { reason: 'Returned' }), [201], 'reverse');
    expect(reversed.body.transaction).toMatchObject({ reason: 'REVERSAL', cause: 'EVENT_REVERSAL', coins: 0, pendingCoins: -100, pendingTokens: -2, xp: -20 });
    expect(reversed.body.balance).toMatchObject({ pendingCoins: 100, coins: 0 });
    const again = expectStatus(await api.post(`/incentives/events/${returned.body.event.id}/reverse`, {}), [200], 'reverse again');
    expect(again.body.transaction.id).toBe(reversed.body.transaction.id);

    await moveClock(15);
    const released = await eventually(() => balanceOf(bea), (b) => b.pendingCoins === 0, 10_000);
    expect(released).toMatchObject({ coins: 100, tokens: 2, pendingCoins: 0, pendingTokens: 0 });
    const releases = (await transactions(bea)).filter((t) => t.reason === 'PENDING_RELEASE');
    expect(releases).toEqual([expect.objectContaining({ cause: 'PENDING_RELEASE', coins: 100, pendingCoins: -100, sourceId: bought.body.event.id })]);
    await agrees(bea);
  });

  it('takes back a spent event as a debt the next credits repay, never a negative balance', async () => {
    const cleo = user('cleo');
    const big = await event(cleo, 'big');
    await adjust(cleo, -40);
    const reversed = expectStatus(await api.post(`/incentives/events/${big.body.event.id}/reverse`, {}), [201], 'reverse').body;
    expect(reversed.transaction).toMatchObject({ coins: -10, xp: -30, debt: { coins: 40, tokens: 0 } });
    expect(reversed.balance).toMatchObject({ coins: 0, xp: 0, debtCoins: 40 });
    // The next 30 coins repay 30 of it; 50 more repay the rest and leave 40.
    const first = await event(cleo, 'earn');
    expect(first.body.rewarded.coins).toBe(10);
    await event(cleo, 'earn');
    await event(cleo, 'earn');
    expect(await balanceOf(cleo)).toMatchObject({ coins: 0, debtCoins: 10 });
    await event(cleo, 'big');
    expect(await balanceOf(cleo)).toMatchObject({ coins: 40, debtCoins: 0 });
    const repaid = (await transactions(cleo)).filter((t) => t.debtRepaid).map((t) => [t.coins, t.debtRepaid?.coins]);
    expect(repaid).toEqual([
      [40, 10],
      [0, 10],
      [0, 10],
      [0, 10],
    ]);
    await agrees(cleo);
    const notRewarded = await api.post('/incentives/events/evt_unknown/reverse', {});
    expect([notRewarded.status, notRewarded.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('a reversal racing redemptions of the same coins (100 concurrent tries): one reversal, never below zero, balance = ledger', async () => {
    const dan = user('dan');
    const item = expectStatus(await api.post('/incentives/catalog', { name: 'Sticker', coinCost: 10, published: true }), [201], 'item').body.item as { id: string };
    await event(dan, 'big');
    await event(dan, 'big');
    const target = await event(dan, 'big');
    const tries = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        i % 2 === 0
          ? api.post(`/incentives/events/${target.body.event.id}/reverse`, {})
          : api.post('/incentives/redeem', { userId: dan, itemId: item.id }),
      ),
    );
    const reversals = tries.filter((_, i) => i % 2 === 0);
    const redemptions = tries.filter((_, i) => i % 2 === 1);
    // 409 CONFLICT: "retry shortly" under contention, never a second reversal or a lost coin.
    expect(reversals.filter((r) => r.status === 201)).toHaveLength(1);
    expect(reversals.filter((r) => ![200, 201, 409].includes(r.status)).map((r) => [r.status, r.body])).toEqual([]);
    // 503: a redemption whose debit call timed out on a loaded machine (documented: nothing is redeemed; the saga gives back what it took).
    expect(redemptions.filter((r) => ![201, 409, 503].includes(r.status) && !(r.status === 422 && r.body.error.code === 'INSUFFICIENT_BALANCE')).map((r) => [r.status, r.body])).toEqual([]);
    // One read of the ledger is one consistent picture, whatever a redemption's saga still does: every entry's balance after it.
    const entries = await transactions(dan);
    const reversal = entries.filter((t) => t.reason === 'REVERSAL');
    expect(reversal).toHaveLength(1);
    // 150 earned: the entries add up to the balance after the newest, and no entry left it below zero.
    expect(entries.reduce((sum, t) => sum + t.coins, 0)).toBe(entries[0].balanceAfter.coins);
    expect(entries.filter((t) => t.balanceAfter.coins < 0)).toEqual([]);
    expect(-reversal[0].coins + (reversal[0].debt?.coins ?? 0)).toBe(50);
    process.stdout.write(`race: ${redemptions.filter((r) => r.status === 201).length} redemptions, reversal took ${-reversal[0].coins} and left ${reversal[0].debt?.coins ?? 0} owed\n`);
  });

  it('nothing is lost or applied twice when the incentive service dies during the expiry and release passes', async () => {
    expectStatus(await api.put('/incentives/settings', { coinExpiryDays: 5 }), [200], 'settings');
    const users = Array.from({ length: 30 }, () => user('crash'));
    for (const u of users) {
      await event(u, 'earn');
      await event(u, 'purchase');
    }
    const entriesOf = (reason: string) => incentiveDb.collection('ledger').countDocuments({ userId: { $in: users }, reason });

    // At the crash point: right after the first balance's entries are written and applied.
    await stack.stopApp('incentive-service');
    await stack.startApp('incentive-service', { RIS_CRASH_AT: 'incentive.dues' });
    // Not confirmed: the service dies at the first balance it settles.
    await moveClock(15, { confirm: false });
    // Waits on the process's exit; the timer is only a bound on a service that never dies there (then the test fails).
    let bound: NodeJS.Timeout | undefined;
    const dead = new Promise<never>((_, reject) => (bound = setTimeout(() => reject(new Error('did not die at incentive.dues')), 20_000))); // a bound, not a wait
    const exit = await Promise.race([stack.lastExit('incentive-service'), dead]).finally(() => clearTimeout(bound));
    expect(exit).toMatchObject({ signal: 'SIGKILL' });
    // And at whatever point a SIGKILL finds the next pass.
    await stack.startApp('incentive-service');
    await eventually(() => entriesOf('PENDING_RELEASE'), (count) => count > 5, 20_000);
    await stack.stopApp('incentive-service', 'SIGKILL');
    process.stdout.write(`releases done when the incentive service was killed: ${await entriesOf('PENDING_RELEASE')} of ${users.length}\n`);
    await stack.startApp('incentive-service');

    // Every release and every expiry exactly once: 100 coins released (then a lot of their own), 10 expired.
    await eventually(() => entriesOf('PENDING_RELEASE'), (count) => count === users.length, 30_000);
    await eventually(() => entriesOf('EXPIRY'), (count) => count === users.length, 30_000);
    for (const u of users) {
      const b = await balanceOf(u);
      expect([u, b.coins, b.pendingCoins, b.tokens]).toEqual([u, 100, 0, 2]);
      await agrees(u);
    }
    expect(await entriesOf('PENDING_RELEASE')).toBe(users.length);
    expect(await entriesOf('EXPIRY')).toBe(users.length);
  }, 150_000);
});
