import type { FraudRule } from './fraud-rule';

/** REFERRER_VELOCITY: one referrer collecting conversions faster than people do. */
export const referrerVelocity: FraudRule = {
  name: 'referrer-velocity',
  appliesTo: ['CONVERSION'],
  evaluate: (facts, settings) =>
    facts.recent.referrerConversions >= settings.referrerVelocityLimit
      ? {
          reason: 'REFERRER_VELOCITY',
          weight: 40,
          description: `the referrer had ${facts.recent.referrerConversions} other conversions recently`,
        }
      : null,
};
