import { Code, ConnectError } from '@connectrpc/connect';
import { IncentiveService } from '@ris/contracts';
import { createServiceClient, errorReason } from '@ris/rpc';
import { createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';

// Debit/Credit/GetBalance are for the catalog-marketplace service, not the
// public API: called here over gRPC, as that service will.
describe('incentive Debit, Credit and GetBalance (gRPC)', () => {
  let app: TestApp;
  const incentive = () => createServiceClient(IncentiveService, e2eStack().serviceUrls['incentive-service']);

  beforeAll(async () => {
    app = await createTestApp('wallet');
  });

  const failure = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (err) {
      if (!(err instanceof ConnectError)) throw err;
      return { code: err.code, reason: errorReason(err).reason };
    }
    throw new Error('expected the call to fail');
  };

  it('credits, and replays a credit with the same operation id', async () => {
    const client = incentive();
    const first = await client.credit({ appId: app.appId, userId: 'shopper', operationId: 'refund-1', coins: 100, tokens: 5, description: 'Refund' });
    expect(first.replayed).toBe(false);
    expect(first.balance).toMatchObject({ coins: 100, tokens: 5 });
    expect(first.entry).toMatchObject({ seq: 1, sourceId: 'refund-1', amounts: { coins: 100, tokens: 5, xp: 0 } });
    const again = await client.credit({ appId: app.appId, userId: 'shopper', operationId: 'refund-1', coins: 100, tokens: 5 });
    expect(again.replayed).toBe(true);
    expect(again.entry?.id).toBe(first.entry?.id);
    expect((await client.getBalance({ appId: app.appId, userId: 'shopper' })).balance).toMatchObject({ coins: 100, tokens: 5 });
    // Credits are not earnings.
    expect((await app.api.get('/incentives/balances/shopper')).body.balance).toMatchObject({ coins: 100, tokens: 5, coinsEarned: 0 });
  });

  it('never goes below zero under concurrent debits, and records nothing for a refused one', async () => {
    const client = incentive();
    const attempts = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => client.debit({ appId: app.appId, userId: 'shopper', operationId: `order-${i}`, coins: 10, tokens: 0 })),
    );
    const paid = attempts.filter((a) => a.status === 'fulfilled');
    const refused = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(paid).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ConnectError);
      expect([r.reason.code, errorReason(r.reason).reason]).toEqual([Code.FailedPrecondition, 'INSUFFICIENT_BALANCE']);
    }
    expect((await client.getBalance({ appId: app.appId, userId: 'shopper' })).balance).toMatchObject({ coins: 0, tokens: 5 });
    const agreement = await ledgerAgreesWithBalance(app.api, 'shopper');
    expect(agreement).toEqual({ totals: { coins: 0, xp: 0, tokens: 5 }, balance: { coins: 0, xp: 0, tokens: 5 }, gapless: true });
  }, 60_000);

  it('debits coins and tokens all or nothing', async () => {
    const client = incentive();
    await client.credit({ appId: app.appId, userId: 'mixed', operationId: 'seed', coins: 30, tokens: 2 });
    const tooMany = await failure(client.debit({ appId: app.appId, userId: 'mixed', operationId: 'buy-1', coins: 10, tokens: 3 }));
    expect(tooMany).toEqual({ code: Code.FailedPrecondition, reason: 'INSUFFICIENT_BALANCE' });
    expect((await client.getBalance({ appId: app.appId, userId: 'mixed' })).balance).toMatchObject({ coins: 30, tokens: 2 });
    const ok = await client.debit({ appId: app.appId, userId: 'mixed', operationId: 'buy-2', coins: 10, tokens: 2, description: 'Mug' });
    expect(ok.balance).toMatchObject({ coins: 20, tokens: 0 });
    expect(ok.entry).toMatchObject({ amounts: { coins: -10, tokens: -2 }, description: 'Mug' });
    const tx = (await app.api.get('/incentives/balances/mixed/transactions')).body.transactions;
    expect(tx[0]).toMatchObject({ reason: 'DEBIT', coins: -10, tokens: -2, sourceId: 'buy-2', balanceAfter: { coins: 20, tokens: 0 } });
  });

  it('replays a debit by operation id, and refuses the id with other amounts', async () => {
    const client = incentive();
    await client.credit({ appId: app.appId, userId: 'replayer', operationId: 'seed-replayer', coins: 15, tokens: 0 });
    const first = await client.debit({ appId: app.appId, userId: 'replayer', operationId: 'redeem-1', coins: 10, tokens: 0 });
    // The balance is now too low for another 10: a replay must still answer with the first result.
    const replay = await client.debit({ appId: app.appId, userId: 'replayer', operationId: 'redeem-1', coins: 10, tokens: 0 });
    expect(replay).toMatchObject({ replayed: true, entry: { id: first.entry?.id }, balance: { coins: 5 } });
    expect(await failure(client.debit({ appId: app.appId, userId: 'replayer', operationId: 'redeem-1', coins: 1, tokens: 0 }))).toEqual({
      code: Code.Aborted,
      reason: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await failure(client.debit({ appId: app.appId, userId: 'someone-else', operationId: 'redeem-1', coins: 10, tokens: 0 }))).toMatchObject({
      code: Code.Aborted,
    });
  });

  it('treats operation ids as unique per app', async () => {
    // 'seed' credited user "mixed" above: the same id for another user is a different request.
    expect(await failure(incentive().credit({ appId: app.appId, userId: 'not-mixed', operationId: 'seed', coins: 30, tokens: 2 }))).toEqual({
      code: Code.Aborted,
      reason: 'IDEMPOTENCY_KEY_REUSED',
    });
  });

  it('refuses bad amounts and ids', async () => {
    const client = incentive();
    for (const bad of [
      { coins: -1, tokens: 0 },
      { coins: 1.5, tokens: 0 },
      { coins: 0, tokens: 0 },
    ]) {
      expect(await failure(client.debit({ appId: app.appId, userId: 'u', operationId: 'x', ...bad }))).toEqual({ code: Code.InvalidArgument, reason: 'VALIDATION_ERROR' });
    }
    expect((await failure(client.credit({ appId: app.appId, userId: 'u', operationId: '', coins: 1, tokens: 0 }))).code).toBe(Code.InvalidArgument);
    expect((await failure(client.credit({ appId: '', userId: 'u', operationId: 'x', coins: 1, tokens: 0 }))).code).toBe(Code.InvalidArgument);
  });

  it('keeps apps apart', async () => {
    const other = await createTestApp('wallet other');
    const client = incentive();
    expect((await client.getBalance({ appId: other.appId, userId: 'mixed' })).balance).toMatchObject({ coins: 0, tokens: 0 });
    expect(await failure(client.debit({ appId: other.appId, userId: 'mixed', operationId: 'steal', coins: 1, tokens: 0 }))).toMatchObject({
      reason: 'INSUFFICIENT_BALANCE',
    });
  });
});
