import { Code, ConnectError } from '@connectrpc/connect';
import { rpcError } from '@ris/rpc';
import { ApiError } from './api-error';
import { toErrorResponse } from './error-response';

describe('toErrorResponse: the one mapping from failures to HTTP', () => {
  it.each([
    [Code.InvalidArgument, 'VALIDATION_ERROR', 400],
    [Code.NotFound, 'NOT_FOUND', 404],
    [Code.AlreadyExists, 'ALREADY_EXISTS', 409],
    [Code.Aborted, 'INVALID_TRANSITION', 409],
    [Code.FailedPrecondition, 'INSUFFICIENT_BALANCE', 422],
    [Code.ResourceExhausted, 'RATE_LIMITED', 429],
  ])('Connect %s with reason %s → %i and that code', (code, reason, status) => {
    const mapped = toErrorResponse(rpcError(code, reason, 'why it failed', { a: 1 }));
    expect(mapped).toMatchObject({ status, code: reason, message: 'why it failed', details: { a: 1 } });
  });

  it('uses the default code when a service attached no reason', () => {
    expect(toErrorResponse(new ConnectError('x', Code.NotFound))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('answers 503 UNAVAILABLE for a dependency that is down, without its internals', () => {
    const mapped = toErrorResponse(new ConnectError('connect ECONNREFUSED 10.0.0.1:50051', Code.Unavailable));
    expect(mapped).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(mapped.message).not.toContain('ECONNREFUSED');
  });

  it('answers 503 for a call cut off mid-way (Canceled, or Aborted without a reason of ours)', () => {
    expect(toErrorResponse(new ConnectError('read ECONNRESET', Code.Aborted))).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(toErrorResponse(new ConnectError('stream closed', Code.Canceled))).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(toErrorResponse(rpcError(Code.Aborted, 'CONFLICT', 'busy'))).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('hides unexpected errors behind 500 INTERNAL', () => {
    expect(toErrorResponse(new Error('secret stack'))).toEqual({ status: 500, code: 'INTERNAL', message: 'Internal error' });
    expect(toErrorResponse(new ConnectError('boom', Code.Internal))).toMatchObject({ status: 500, code: 'INTERNAL' });
  });

  it('passes gateway errors through with their headers', () => {
    const mapped = toErrorResponse(new ApiError(429, 'RATE_LIMITED', 'slow down', undefined, { 'Retry-After': '1' }));
    expect(mapped).toMatchObject({ status: 429, code: 'RATE_LIMITED', headers: { 'Retry-After': '1' } });
  });

  it('maps body-parser failures', () => {
    expect(toErrorResponse({ type: 'entity.too.large', status: 413 })).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    expect(toErrorResponse({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });
});
