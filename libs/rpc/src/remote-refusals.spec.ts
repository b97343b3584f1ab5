import type { Client } from '@connectrpc/connect';
import { IncentiveService } from '@ris/contracts';
import { isDomainError } from '@ris/domain-errors';
import { Code, ConnectError, errorReason, rpcError, toConnectError } from './rpc-error';
import { refusalsAsDomainErrors, remoteRefusal } from './remote-refusals';

describe("another service's refusals", () => {
  it('become the domain error that answers the caller the same code, reason, message and details', () => {
    for (const code of [Code.FailedPrecondition, Code.InvalidArgument, Code.NotFound, Code.Aborted, Code.PermissionDenied]) {
      const refusal = remoteRefusal(rpcError(code, 'INSUFFICIENT_BALANCE', 'not enough', { userId: 'u1' }));
      expect(isDomainError(refusal)).toBe(true);
      const back = toConnectError(refusal) as ConnectError;
      expect([back.code, back.rawMessage, errorReason(back)]).toEqual([code, 'not enough', { reason: 'INSUFFICIENT_BALANCE', details: { userId: 'u1' } }]);
    }
  });

  it('are not made up from errors whose outcome is unknown', () => {
    for (const err of [
      new ConnectError('read ECONNRESET', Code.Aborted),
      rpcError(Code.Unavailable, 'UNAVAILABLE', 'down'),
      new ConnectError('deadline', Code.DeadlineExceeded),
      new Error('not even a ConnectError'),
    ]) {
      expect(remoteRefusal(err)).toBeNull();
    }
  });

  it("reach a client's caller as domain errors, anything else as it came", async () => {
    const reset = new ConnectError('read ECONNRESET', Code.Aborted);
    let next: unknown = rpcError(Code.FailedPrecondition, 'INSUFFICIENT_BALANCE', 'not enough');
    const calls = refusalsAsDomainErrors(IncentiveService, { debit: () => Promise.reject(next) } as unknown as Client<typeof IncentiveService>);
    await expect(calls.debit({})).rejects.toMatchObject({ kind: 'refused', reason: 'INSUFFICIENT_BALANCE', message: 'not enough' });
    next = reset;
    await expect(calls.debit({})).rejects.toBe(reset);
  });
});
