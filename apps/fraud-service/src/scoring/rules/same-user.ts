import type { FraudRule } from './fraud-rule';

/** SELF_REFERRAL: the referee is the referrer's own user id. */
export const sameUser: FraudRule = {
  name: 'same-user',
  appliesTo: ['REFERRAL', 'CONVERSION'],
  evaluate: (facts) =>
    facts.refereeId !== null && facts.refereeId === facts.referrerId
      ? { reason: 'SELF_REFERRAL', weight: 100, description: 'the referee is the referrer' }
      : null,
};
