import { normalizeEmail } from './email-address';
import { cleanFacts, ruleSettings } from './facts-fixture';
import { sameEmail } from './same-email';

const withEmails = (referee: string | null, referrer: string | null) =>
  cleanFacts({
    actor: { ip: null, deviceId: null, email: referee },
    referrer: { ip: null, deviceId: null, email: referrer },
  });

describe('same-email rule', () => {
  it('normalises case, dots and plus-aliases', () => {
    expect(normalizeEmail(' Jo.Hn+Promo@Example.com ')).toBe('john@example.com');
    expect(normalizeEmail('john@googlemail.com')).toBe('john@gmail.com');
    expect(normalizeEmail('not-an-email')).toBeNull();
    expect(normalizeEmail('+tag@example.com')).toBeNull();
  });

  it('fires SELF_REFERRAL for the same address', () => {
    expect(sameEmail.evaluate(withEmails('Alice@Example.com', 'alice@example.com'), ruleSettings)).toMatchObject({ reason: 'SELF_REFERRAL' });
  });

  it('fires EMAIL_ALIAS for a dotted or plus-aliased address', () => {
    expect(sameEmail.evaluate(withEmails('a.lice+2@example.com', 'alice@example.com'), ruleSettings)).toMatchObject({ reason: 'EMAIL_ALIAS', weight: 70 });
  });

  it('stays silent for different or missing addresses', () => {
    expect(sameEmail.evaluate(withEmails('bob@example.com', 'alice@example.com'), ruleSettings)).toBeNull();
    expect(sameEmail.evaluate(withEmails(null, 'alice@example.com'), ruleSettings)).toBeNull();
    expect(sameEmail.evaluate(withEmails(null, null), ruleSettings)).toBeNull();
  });
});
