import { cleanFacts, ruleSettings } from './facts-fixture';
import { multipleCodes } from './multiple-codes';

describe('multiple-codes rule (MULTIPLE_CODES)', () => {
  it('fires when the referee already converted through another code', () => {
    expect(multipleCodes.evaluate(cleanFacts({ refereeOtherCodes: { converted: 1, clicked: 0 } }), ruleSettings)).toMatchObject({
      reason: 'MULTIPLE_CODES',
      weight: 40,
    });
  });

  it('fires when the referee clicked two or more other codes', () => {
    expect(multipleCodes.evaluate(cleanFacts({ refereeOtherCodes: { converted: 0, clicked: 2 } }), ruleSettings)).toMatchObject({
      reason: 'MULTIPLE_CODES',
      weight: 30,
    });
  });

  it('stays silent for one other click (two invitations happen)', () => {
    expect(multipleCodes.evaluate(cleanFacts({ refereeOtherCodes: { converted: 0, clicked: 1 } }), ruleSettings)).toBeNull();
    expect(multipleCodes.evaluate(cleanFacts(), ruleSettings)).toBeNull();
  });
});
