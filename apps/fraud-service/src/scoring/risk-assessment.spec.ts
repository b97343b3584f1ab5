import { assessRisk } from './risk-assessment';
import { cleanFacts, ruleSettings } from './rules/facts-fixture';
import { FRAUD_RULES } from './rules/rule-set';

describe('risk assessment', () => {
  it('is clean (score 0, no reasons, no warning) when no rule fires', () => {
    expect(assessRisk(cleanFacts(), FRAUD_RULES, ruleSettings, 50)).toEqual({ riskScore: 0, reasons: [], warning: null, flagged: false });
    // Even a zero threshold does not flag an event nothing fired on.
    expect(assessRisk(cleanFacts(), FRAUD_RULES, ruleSettings, 0).flagged).toBe(false);
  });

  it('sums the weights, caps at 100, lists reasons strongest first and flags at the threshold', () => {
    const facts = cleanFacts({ refereeId: 'alice' });
    facts.actor.deviceId = 'device-alice';
    facts.actor.ip = facts.referrer.ip;
    const result = assessRisk(facts, FRAUD_RULES, ruleSettings, 50);
    expect(result.riskScore).toBe(100);
    expect(result.reasons).toEqual(['SELF_REFERRAL', 'SAME_DEVICE', 'SAME_IP']);
    expect(result.flagged).toBe(true);
    expect(result.warning).toMatch(/^This conversion was flagged for review \(risk 100\/100\): the referee is the referrer; .*\.$/);
  });

  it('reports a score under the threshold without flagging it', () => {
    const facts = cleanFacts();
    facts.actor.ip = facts.referrer.ip;
    expect(assessRisk(facts, FRAUD_RULES, ruleSettings, 50)).toEqual({ riskScore: 35, reasons: ['SAME_IP'], warning: null, flagged: false });
    expect(assessRisk(facts, FRAUD_RULES, ruleSettings, 35).flagged).toBe(true);
  });

  it('runs only the rules of the kind scored', () => {
    // A referral's context is the referrer's own: comparing it with the referrer says nothing.
    const facts = cleanFacts({ kind: 'REFERRAL' });
    facts.actor = { ...facts.referrer };
    expect(assessRisk(facts, FRAUD_RULES, ruleSettings, 1).reasons).toEqual([]);
  });
});
