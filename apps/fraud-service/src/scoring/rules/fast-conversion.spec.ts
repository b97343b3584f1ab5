import { cleanFacts, ruleSettings } from './facts-fixture';
import { fastConversion } from './fast-conversion';

const at = new Date('2026-11-21T12:00:00.000Z');
const secondsBefore = (s: number) => new Date(at.getTime() - s * 1000);

describe('fast-conversion rule (FAST_CONVERSION)', () => {
  it('fires for a conversion seconds after the click', () => {
    expect(fastConversion.evaluate(cleanFacts({ at, lastMatchingClickAt: secondsBefore(2) }), ruleSettings)).toMatchObject({
      reason: 'FAST_CONVERSION',
      weight: 25,
      description: 'the conversion came 2.0 s after the click',
    });
  });

  it('stays silent after a human delay, and without a matching click', () => {
    expect(fastConversion.evaluate(cleanFacts({ at, lastMatchingClickAt: secondsBefore(10) }), ruleSettings)).toBeNull();
    expect(fastConversion.evaluate(cleanFacts({ at, lastMatchingClickAt: null }), ruleSettings)).toBeNull();
  });
});
