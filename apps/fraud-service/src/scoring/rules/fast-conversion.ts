import type { FraudRule } from './fraud-rule';

/** FAST_CONVERSION: converted within seconds of clicking the link (scripted sign-ups). */
export const fastConversion: FraudRule = {
  name: 'fast-conversion',
  appliesTo: ['CONVERSION'],
  evaluate: (facts, settings) => {
    if (!facts.lastMatchingClickAt) return null;
    const seconds = (facts.at.getTime() - facts.lastMatchingClickAt.getTime()) / 1000;
    return seconds >= 0 && seconds < settings.fastConversionSeconds
      ? { reason: 'FAST_CONVERSION', weight: 25, description: `the conversion came ${seconds.toFixed(1)} s after the click` }
      : null;
  },
};
