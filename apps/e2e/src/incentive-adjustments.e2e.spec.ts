import { IncentiveService } from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { OperatorSession, addMember, createOperator, createTestApp, e2eStack, type ApiResponse, type TestApp } from '@ris/testing';
import { CoinFaucet, ledgerOf } from './support/coin-balances';

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];
let n = 0;
const user = (name: string) => `${name}-${Date.now().toString(36)}-${(n += 1)}`;

// Manual adjustments (POST /incentives/balances/{userId}/adjustments) and
// the cause of every ledger entry, through the real gateway.
describe('manual adjustments and ledger causes', () => {
  let app: TestApp;
  const sessions: Record<'owner' | 'manager' | 'viewer', OperatorSession> = {} as never;
  const emails: Record<string, string> = {};

  beforeAll(async () => {
    app = await createTestApp('adjustments');
    for (const role of ['owner', 'manager', 'viewer'] as const) {
      const op = await createOperator();
      await addMember(app.appId, op.id, role.toUpperCase() as 'OWNER' | 'MANAGER' | 'VIEWER');
      sessions[role] = await OperatorSession.signIn(op.email, op.password);
      emails[role] = op.email;
    }
  });

  const adjust = (userId: string, body: Record<string, unknown>, headers?: Record<string, string>, api = app.api) =>
    api.post(`/incentives/balances/${encodeURIComponent(userId)}/adjustments`, body, headers);
  const balance = async (userId: string) => (await app.api.get(`/incentives/balances/${encodeURIComponent(userId)}`)).body.balance;

  it('credits and debits coins, tokens and XP as one ledger entry with reason and cause ADJUSTMENT', async () => {
    const who = user('ann');
    const credit = await adjust(who, { coins: 120, tokens: 3, xp: 40, note: 'Goodwill for the outage' });
    expect(credit.status).toBe(201);
    expect(credit.body.transaction).toMatchObject({
      seq: 1,
      reason: 'ADJUSTMENT',
      cause: 'ADJUSTMENT',
      coins: 120,
      tokens: 3,
      xp: 40,
      balanceAfter: { coins: 120, tokens: 3, xp: 40 },
      description: 'Goodwill for the outage',
      actionKey: null,
    });
    expect(credit.body.balance).toMatchObject({ userId: who, coins: 120, tokens: 3, xp: 40, coinsEarned: 0 });
    const debit = await adjust(who, { coins: -20, xp: -40, note: 'Taken back' });
    expect(debit.status).toBe(201);
    expect(debit.body.transaction).toMatchObject({ seq: 2, coins: -20, tokens: 0, xp: -40, balanceAfter: { coins: 100, tokens: 3, xp: 0 } });
    const ledger = await ledgerOf(app, who);
    expect(ledger.entries.map((e: any) => [e.reason, e.cause, e.description])).toEqual([
      ['ADJUSTMENT', 'ADJUSTMENT', 'Taken back'],
      ['ADJUSTMENT', 'ADJUSTMENT', 'Goodwill for the outage'],
    ]);
    expect([ledger.coins, ledger.tokens]).toEqual([100, 3]);
  });

  it('refuses a debit that would leave coins, tokens or XP below zero with 422 INSUFFICIENT_BALANCE, changing nothing', async () => {
    const who = user('bob');
    await adjust(who, { coins: 10, tokens: 1, xp: 5, note: 'Start' });
    const before = { balance: await balance(who), ledger: await ledgerOf(app, who) };
    for (const over of [{ coins: -11 }, { tokens: -2 }, { xp: -6 }, { coins: 5, tokens: -2 }]) {
      const res = await adjust(who, { ...over, note: 'Too much' });
      expect([over, ...statusAndCode(res)]).toEqual([over, 422, 'INSUFFICIENT_BALANCE']);
    }
    expect({ balance: await balance(who), ledger: await ledgerOf(app, who) }).toEqual(before);
  });

  it('applies an adjustment retried with the same Idempotency-Key once', async () => {
    const who = user('cid');
    const key = `adj-${who}`;
    const body = { coins: 7, note: 'Once' };
    const [first, second] = [await adjust(who, body, { 'Idempotency-Key': key }), await adjust(who, body, { 'Idempotency-Key': key })];
    expect([first.status, second.status, second.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(second.body).toEqual(first.body);
    // The operation key the gateway derives: a retry whose first answer was lost (a 5xx) reaches the service again, and finds its entry.
    const operationKey = `${app.appId}-${who}`;
    const incentive = createServiceClient(IncentiveService, e2eStack().serviceUrls['incentive-service']);
    const once = await incentive.adjustBalance({ appId: app.appId, userId: who, coins: 3, tokens: 0, xp: 0, note: 'Retried', operationKey });
    const again = await incentive.adjustBalance({ appId: app.appId, userId: who, coins: 3, tokens: 0, xp: 0, note: 'Retried', operationKey });
    expect([once.replayed, again.replayed, again.entry?.id]).toEqual([false, true, once.entry?.id]);
    const ledger = await ledgerOf(app, who);
    expect([ledger.entries.length, ledger.coins, (await balance(who)).coins]).toEqual([2, 10, 10]);
  });

  it('refuses a body without an amount, with only zeros, or without a note (400)', async () => {
    for (const body of [{ note: 'Nothing' }, { coins: 0, tokens: 0, xp: 0, note: 'Zeros' }, { coins: 5 }, { coins: 5, note: '   ' }, { coins: 1.5, note: 'x' }, { coins: 5, note: 'x'.repeat(501) }]) {
      expect([body, ...statusAndCode(await adjust(user('dot'), body))]).toEqual([body, 400, 'VALIDATION_ERROR']);
    }
  });

  it('moves the leaderboard and grants the levels its XP reaches, as a recorded score does', async () => {
    const level = 1;
    expect((await app.api.post('/incentives/levels', { level, name: 'Adjusted', xpThreshold: 1_000_000, rewards: { coins: 25 } })).status).toBe(201);
    const who = user('eve');
    const res = await adjust(who, { xp: 1_000_000, note: 'Imported from the old system' });
    expect(res.body.balance).toMatchObject({ xp: 1_000_000, level, coins: 25 });
    expect((await ledgerOf(app, who)).entries.map((e: any) => e.cause)).toEqual(['LEVEL', 'ADJUSTMENT']);
    const entry = await app.api.get(`/incentives/leaderboard/${encodeURIComponent(who)}`);
    expect([entry.status, entry.body.xp, entry.body.rank]).toEqual([200, 1_000_000, 1]);
  });

  it('lets a MANAGER or an OWNER adjust through a session, audited; a VIEWER gets 403 FORBIDDEN and nothing changes', async () => {
    const who = user('fay');
    const refused = await adjust(who, { coins: 5, note: 'Viewer' }, undefined, sessions.viewer.api(app.appId));
    expect(statusAndCode(refused)).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.error.details).toEqual({ requiredRole: 'MANAGER', role: 'VIEWER' });
    expect((await ledgerOf(app, who)).entries).toEqual([]);
    expect((await adjust(who, { coins: 5, note: 'By the manager' }, undefined, sessions.manager.api(app.appId))).status).toBe(201);
    expect((await adjust(who, { coins: -2, note: 'By the owner' }, undefined, sessions.owner.api(app.appId))).status).toBe(201);
    expect((await balance(who)).coins).toBe(3);

    const audit = (await sessions.viewer.console.get(`/apps/${app.appId}/audit?limit=100`)).body.entries as any[];
    const mine = audit.filter((e) => e.target?.id === who);
    expect(mine.map((e) => [e.operator.email, e.action, e.target.type])).toEqual([
      [emails.owner, 'POST /api/v1/incentives/balances/{userId}/adjustments', 'balance'],
      [emails.manager, 'POST /api/v1/incentives/balances/{userId}/adjustments', 'balance'],
    ]);
    expect(mine[0].after).toMatchObject({ transaction: { reason: 'ADJUSTMENT', coins: -2, description: 'By the owner' }, balance: { coins: 3 } });
    expect(mine[0].before).toMatchObject({ balance: { coins: 5 } });
  });

  it('names the cause of every movement: events, catalog and marketplace redemptions, refunds', async () => {
    const who = user('gus');
    const faucet = new CoinFaucet(app);
    await faucet.give(who, 100);
    const item = (await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 30, published: true })).body.item;
    const kept = await app.api.post('/incentives/redeem', { userId: who, itemId: item.id });
    const cancelled = await app.api.post('/incentives/redeem', { userId: who, itemId: item.id });
    expect([kept.status, cancelled.status]).toEqual([201, 201]);
    expect((await app.api.patch(`/incentives/redemptions/${cancelled.body.redemption.id}`, { status: 'CANCELLED' })).status).toBe(200);
    const listing = (await app.api.post('/incentives/marketplace/listings', { title: 'Offer', coinCost: 10, discount: { type: 'PERCENT', value: 10 }, published: true })).body.listing;
    expect((await app.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: who })).status).toBe(201);
    const { entries } = await ledgerOf(app, who);
    expect(entries.map((e: any) => [e.reason, e.cause, e.coins])).toEqual([
      ['DEBIT', 'MARKETPLACE_REDEMPTION', -10],
      ['CREDIT', 'REFUND', 30],
      ['DEBIT', 'CATALOG_REDEMPTION', -30],
      ['DEBIT', 'CATALOG_REDEMPTION', -30],
      ['ACTION_REWARD', 'EVENT', 100],
    ]);
  });
});
