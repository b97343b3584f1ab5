import { cleanFacts, ruleSettings } from './facts-fixture';
import { sameUser } from './same-user';

describe('same-user rule (SELF_REFERRAL)', () => {
  it('fires when the referee is the referrer', () => {
    expect(sameUser.evaluate(cleanFacts({ refereeId: 'alice' }), ruleSettings)).toMatchObject({ reason: 'SELF_REFERRAL', weight: 100 });
  });

  it('stays silent for different users and for an unknown referee', () => {
    expect(sameUser.evaluate(cleanFacts(), ruleSettings)).toBeNull();
    expect(sameUser.evaluate(cleanFacts({ kind: 'REFERRAL', refereeId: null }), ruleSettings)).toBeNull();
  });
});
