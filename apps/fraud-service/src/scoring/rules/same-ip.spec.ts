import { cleanFacts, ruleSettings } from './facts-fixture';
import { sameIp } from './same-ip';

describe('same-ip rule (SAME_IP)', () => {
  it("fires when the referee converts from the referrer's IP", () => {
    const facts = cleanFacts();
    facts.actor.ip = facts.referrer.ip;
    expect(sameIp.evaluate(facts, ruleSettings)).toMatchObject({ reason: 'SAME_IP', weight: 35 });
  });

  it('stays silent for different or unknown IPs', () => {
    expect(sameIp.evaluate(cleanFacts(), ruleSettings)).toBeNull();
    const unknown = cleanFacts();
    unknown.actor.ip = null;
    unknown.referrer.ip = null;
    expect(sameIp.evaluate(unknown, ruleSettings)).toBeNull();
  });
});
