import { deviceVelocity } from './device-velocity';
import { cleanFacts, ruleSettings } from './facts-fixture';

describe('device-velocity rule (DEVICE_VELOCITY)', () => {
  it('fires once the limit of other events from the device is reached', () => {
    const facts = cleanFacts({ kind: 'REFERRAL', recent: { sameIp: 0, sameDevice: 3, referrerConversions: 0 } });
    const hit = deviceVelocity.evaluate(facts, ruleSettings);
    expect(hit).toMatchObject({ reason: 'DEVICE_VELOCITY', weight: 50 });
    expect(hit?.description).toContain('3 other referrals');
  });

  it('stays silent below the limit and without a device', () => {
    expect(deviceVelocity.evaluate(cleanFacts({ recent: { sameIp: 0, sameDevice: 2, referrerConversions: 0 } }), ruleSettings)).toBeNull();
    expect(
      deviceVelocity.evaluate(
        cleanFacts({ actor: { ip: null, deviceId: null, email: null }, recent: { sameIp: 0, sameDevice: 9, referrerConversions: 0 } }),
        ruleSettings,
      ),
    ).toBeNull();
  });
});
