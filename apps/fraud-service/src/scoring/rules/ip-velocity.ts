import type { FraudRule } from './fraud-rule';

/** IP_VELOCITY: many referrals (or conversions) from one IP address inside the window. */
export const ipVelocity: FraudRule = {
  name: 'ip-velocity',
  appliesTo: ['REFERRAL', 'CONVERSION'],
  evaluate: (facts, settings) =>
    facts.actor.ip && facts.recent.sameIp >= settings.ipVelocityLimit
      ? {
          reason: 'IP_VELOCITY',
          weight: 40,
          description: `${facts.recent.sameIp} other ${facts.kind === 'REFERRAL' ? 'referrals' : 'conversions'} came from the same IP address recently`,
        }
      : null,
};
