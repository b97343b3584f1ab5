import { IdempotencyStore } from './idempotency';

describe('IdempotencyStore request hashing', () => {
  it('treats the same body with keys in another order as the same request', () => {
    const a = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', meta: { a: 1, b: [1, 2] } });
    const b = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { meta: { b: [1, 2], a: 1 }, referralCode: 'X' });
    expect(a).toBe(b);
  });

  it('tells apart other bodies and other endpoints', () => {
    const base = IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X' });
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'Y' })).not.toBe(base);
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/referrals', { referralCode: 'X' })).not.toBe(base);
    expect(IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', b: [2, 1] })).not.toBe(
      IdempotencyStore.hashRequest('POST', '/api/v1/clicks', { referralCode: 'X', b: [1, 2] }),
    );
  });

  it('accepts printable keys up to 255 characters only', () => {
    expect(() => IdempotencyStore.validateKey('order-123_ABC')).not.toThrow();
    expect(() => IdempotencyStore.validateKey('')).toThrow();
    expect(() => IdempotencyStore.validateKey('x'.repeat(256))).toThrow();
    expect(() => IdempotencyStore.validateKey('with space')).toThrow();
  });
});
