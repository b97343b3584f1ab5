import type { FraudRule } from './fraud-rule';

/** SAME_DEVICE: the referee converts on the referrer's device. */
export const sameDevice: FraudRule = {
  name: 'same-device',
  appliesTo: ['CONVERSION'],
  evaluate: ({ actor, referrer }) =>
    actor.deviceId && actor.deviceId === referrer.deviceId
      ? { reason: 'SAME_DEVICE', weight: 60, description: "the referee's device is the referrer's" }
      : null,
};
