import type { Client } from '@connectrpc/connect';
import { IncentiveService, LedgerCause } from '@ris/contracts';
import { Code, ConnectError, refusalsAsDomainErrors, rpcError, toConnectError } from '@ris/rpc';
import { IncentiveBalanceAccount } from './incentive-balance-account';

// What each answer of Debit means for the saga: applied, definitely not
// applied (the incentive service's own refusals carry a reason), or unknown;
// with the client wired as main.ts wires it.
describe('IncentiveBalanceAccount', () => {
  const op = { operationId: 'rdm_1:debit', appId: 'app_1', userId: 'u1', coins: 10, tokens: 1, memo: 'catalog redemption rdm_1', cause: 'CATALOG_REDEMPTION' as const };
  const account = (debit: (req?: unknown) => Promise<unknown>) =>
    new IncentiveBalanceAccount(refusalsAsDomainErrors(IncentiveService, { debit } as unknown as Client<typeof IncentiveService>));

  it('reports a debit that went through, with the balance after it', async () => {
    const outcome = await account(async () => ({ balance: { coins: 5, tokens: 0, xp: 7, level: 2 } })).debit(op);
    expect(outcome).toEqual({ ok: true, balance: { coins: 5, tokens: 0, xp: 7, level: 2 } });
  });

  it("names the movement's cause for the user's ledger", async () => {
    const sent: unknown[] = [];
    await account(async (req?: unknown) => (sent.push(req), { balance: { coins: 5, tokens: 0, xp: 0, level: 0 } })).debit(op);
    await account(async (req?: unknown) => (sent.push(req), { balance: { coins: 5, tokens: 0, xp: 0, level: 0 } })).debit({ ...op, cause: 'MARKETPLACE_REDEMPTION' });
    expect(sent).toMatchObject([
      { operationId: 'rdm_1:debit', coins: 10, tokens: 1, cause: LedgerCause.CATALOG_REDEMPTION },
      { cause: LedgerCause.MARKETPLACE_REDEMPTION },
    ]);
  });

  it('reports INSUFFICIENT_BALANCE, and other refusals with a reason, as definitely not applied', async () => {
    const insufficient = await account(() => Promise.reject(rpcError(Code.FailedPrecondition, 'INSUFFICIENT_BALANCE', 'no'))).debit(op);
    expect(insufficient).toMatchObject({ ok: false, insufficient: true });
    const reused = await account(() => Promise.reject(rpcError(Code.Aborted, 'IDEMPOTENCY_KEY_REUSED', 'other amounts'))).debit(op);
    expect(reused).toMatchObject({ ok: false, insufficient: false });
    if (!reused.ok) expect((toConnectError(reused.error) as ConnectError).code).toBe(Code.Aborted);
  });

  it('leaves the outcome unknown (throws) when the answer is not a refusal of the service', async () => {
    for (const err of [
      new ConnectError('read ECONNRESET', Code.Aborted),
      new ConnectError('connect ECONNREFUSED', Code.Unavailable),
      new ConnectError('deadline', Code.DeadlineExceeded),
      new ConnectError('boom', Code.Internal),
      new Error('not even a ConnectError'),
    ]) {
      await expect(account(() => Promise.reject(err)).debit(op)).rejects.toBe(err);
    }
  });
});
