import type { FraudRule } from './fraud-rule';

/** SAME_IP: the referee converts from the referrer's IP (weak alone: offices and carriers share IPs). */
export const sameIp: FraudRule = {
  name: 'same-ip',
  appliesTo: ['CONVERSION'],
  evaluate: ({ actor, referrer }) =>
    actor.ip && actor.ip === referrer.ip
      ? { reason: 'SAME_IP', weight: 35, description: "the referee's IP address is the referrer's" }
      : null,
};
