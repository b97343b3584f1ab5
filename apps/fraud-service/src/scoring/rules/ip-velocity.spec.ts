import { cleanFacts, ruleSettings } from './facts-fixture';
import { ipVelocity } from './ip-velocity';

describe('ip-velocity rule (IP_VELOCITY)', () => {
  it('fires once the limit of other events from the IP is reached', () => {
    const hit = ipVelocity.evaluate(cleanFacts({ recent: { sameIp: 5, sameDevice: 0, referrerConversions: 0 } }), ruleSettings);
    expect(hit).toMatchObject({ reason: 'IP_VELOCITY', weight: 40 });
    expect(hit?.description).toContain('5 other conversions');
  });

  it('stays silent below the limit and without an IP', () => {
    expect(ipVelocity.evaluate(cleanFacts({ recent: { sameIp: 4, sameDevice: 0, referrerConversions: 0 } }), ruleSettings)).toBeNull();
    expect(
      ipVelocity.evaluate(
        cleanFacts({ actor: { ip: null, deviceId: null, email: null }, recent: { sameIp: 50, sameDevice: 0, referrerConversions: 0 } }),
        ruleSettings,
      ),
    ).toBeNull();
  });
});
