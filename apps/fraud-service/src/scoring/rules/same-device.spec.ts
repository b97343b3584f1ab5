import { cleanFacts, ruleSettings } from './facts-fixture';
import { sameDevice } from './same-device';

describe('same-device rule (SAME_DEVICE)', () => {
  it("fires when the referee converts on the referrer's device", () => {
    const facts = cleanFacts();
    facts.actor.deviceId = 'device-alice';
    expect(sameDevice.evaluate(facts, ruleSettings)).toMatchObject({ reason: 'SAME_DEVICE', weight: 60 });
  });

  it('stays silent for different or unknown devices', () => {
    expect(sameDevice.evaluate(cleanFacts(), ruleSettings)).toBeNull();
    const unknown = cleanFacts();
    unknown.actor.deviceId = null;
    unknown.referrer.deviceId = null;
    expect(sameDevice.evaluate(unknown, ruleSettings)).toBeNull();
  });
});
