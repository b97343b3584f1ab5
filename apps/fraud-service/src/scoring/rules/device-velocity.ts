import type { FraudRule } from './fraud-rule';

/** DEVICE_VELOCITY: many referrals (or conversions) from one device inside the window. */
export const deviceVelocity: FraudRule = {
  name: 'device-velocity',
  appliesTo: ['REFERRAL', 'CONVERSION'],
  evaluate: (facts, settings) =>
    facts.actor.deviceId && facts.recent.sameDevice >= settings.deviceVelocityLimit
      ? {
          reason: 'DEVICE_VELOCITY',
          weight: 50,
          description: `${facts.recent.sameDevice} other ${facts.kind === 'REFERRAL' ? 'referrals' : 'conversions'} came from the same device recently`,
        }
      : null,
};
