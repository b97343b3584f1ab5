import { cleanFacts, ruleSettings } from './facts-fixture';
import { referrerVelocity } from './referrer-velocity';

describe('referrer-velocity rule (REFERRER_VELOCITY)', () => {
  it('fires when the referrer collected the limit of other conversions in the window', () => {
    const hit = referrerVelocity.evaluate(cleanFacts({ recent: { sameIp: 0, sameDevice: 0, referrerConversions: 10 } }), ruleSettings);
    expect(hit).toMatchObject({ reason: 'REFERRER_VELOCITY', weight: 40 });
  });

  it('stays silent below the limit', () => {
    expect(referrerVelocity.evaluate(cleanFacts({ recent: { sameIp: 0, sameDevice: 0, referrerConversions: 9 } }), ruleSettings)).toBeNull();
  });
});
