import { disposableDomainMatcher } from './disposable-domains';
import type { RuleSettings, ScoringFacts } from './fraud-rule';

/** A clean conversion: different people, no shared context, no history. Specs change one thing at a time. */
export function cleanFacts(overrides: Partial<ScoringFacts> = {}): ScoringFacts {
  return {
    kind: 'CONVERSION',
    at: new Date('2026-11-21T12:00:00.000Z'),
    referrerId: 'alice',
    refereeId: 'bob',
    referralCode: 'ABCD2345',
    actor: { ip: '198.51.100.7', deviceId: 'device-bob', email: 'bob@example.com' },
    referrer: { ip: '203.0.113.9', deviceId: 'device-alice', email: 'alice@example.com' },
    recent: { sameIp: 0, sameDevice: 0, referrerConversions: 0 },
    lastMatchingClickAt: null,
    refereeOtherCodes: { converted: 0, clicked: 0 },
    ...overrides,
  };
}

export const ruleSettings: RuleSettings = {
  ipVelocityLimit: 5,
  deviceVelocityLimit: 3,
  referrerVelocityLimit: 10,
  fastConversionSeconds: 10,
  isDisposableDomain: disposableDomainMatcher(),
};
