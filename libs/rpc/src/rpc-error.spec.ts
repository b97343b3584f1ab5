import { Code, ConnectError } from '@connectrpc/connect';
import { refused, unavailable } from '@ris/domain-errors';
import { errorReason, fromItemError, notFound, rpcError, toItemError } from './rpc-error';

describe('item errors of batched calls', () => {
  it('carry a public error as a single call would: code, message, reason and details', () => {
    const back = fromItemError(toItemError(notFound('Referral code', { referralCode: 'ZZZZZZZZ' })));
    expect(back.code).toBe(Code.NotFound);
    expect(back.rawMessage).toBe('Referral code not found');
    expect(errorReason(back)).toEqual({ reason: 'NOT_FOUND', details: { referralCode: 'ZZZZZZZZ' } });

    const refused = fromItemError(toItemError(rpcError(Code.FailedPrecondition, 'CAMPAIGN_INACTIVE', 'inactive')));
    expect([refused.code, errorReason(refused).reason]).toEqual([Code.FailedPrecondition, 'CAMPAIGN_INACTIVE']);
  });

  it('carry a domain error as the ConnectError it becomes', () => {
    const back = fromItemError(toItemError(refused('CAMPAIGN_INACTIVE', 'The campaign is paused.', { campaignId: 'cmp_1' })));
    expect([back.code, back.rawMessage, errorReason(back)]).toEqual([Code.FailedPrecondition, 'The campaign is paused.', { reason: 'CAMPAIGN_INACTIVE', details: { campaignId: 'cmp_1' } }]);
    expect(fromItemError(toItemError(unavailable('Retry.'))).code).toBe(Code.Unavailable);
  });

  it('keep a Connect code without a reason', () => {
    const back = fromItemError(toItemError(new ConnectError('slow', Code.DeadlineExceeded)));
    expect([back.code, back.rawMessage, errorReason(back)]).toEqual([Code.DeadlineExceeded, 'slow', {}]);
  });

  it('leave nothing of an unexpected error but Internal', () => {
    for (const err of [new Error('db password in here'), new ConnectError('stack', Code.Internal), 'thrown string']) {
      const item = toItemError(err);
      expect([item.code, item.message, item.detail]).toEqual([Code.Internal, 'internal error', undefined]);
    }
  });
});
