import { Webhook } from 'standardwebhooks';
import { SECRET_PREFIX, generateSecret, secretKey, sign, signedHeaders } from './signing';

describe('Standard Webhooks signing', () => {
  it('matches the Standard Webhooks reference vector', () => {
    // The example of the specification and its reference libraries.
    expect(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const secrets = new Set(Array.from({ length: 50 }, () => generateSecret()));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(secretKey(secret)).toHaveLength(32);
    }
    expect(() => secretKey('nope')).toThrow(/whsec_/);
    expect(() => secretKey(SECRET_PREFIX)).toThrow(/empty/);
  });

  it('produces headers the public standardwebhooks library verifies', () => {
    const secret = generateSecret();
    const body = JSON.stringify({ id: 'msg_1', event: 'REFERRAL_CREATED', createdAt: new Date().toISOString(), data: { a: 'ü' } });
    const headers = signedHeaders([secret], 'msg_1', body);
    expect(headers['webhook-id']).toBe('msg_1');
    expect(headers['webhook-timestamp']).toMatch(/^\d{10}$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
  });

  it('signs with several secrets during a rotation, each verifying on its own', () => {
    const [fresh, old] = [generateSecret(), generateSecret()];
    const body = '{"id":"msg_2"}';
    const headers = signedHeaders([fresh, old], 'msg_2', body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(fresh).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(old).verify(body, { ...headers })).not.toThrow();
    expect(() => signedHeaders([], 'msg_2', body)).toThrow();
  });
});
