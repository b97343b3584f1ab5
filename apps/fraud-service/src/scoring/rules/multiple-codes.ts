import type { FraudRule } from './fraud-rule';

/**
 * MULTIPLE_CODES: one referee converting through several codes (another
 * campaign's, since a campaign takes one conversion per referee), or
 * shopping around: clicking at least two other referrers' codes first.
 */
export const multipleCodes: FraudRule = {
  name: 'multiple-codes',
  appliesTo: ['CONVERSION'],
  evaluate: ({ refereeOtherCodes }) => {
    if (refereeOtherCodes.converted > 0) {
      return { reason: 'MULTIPLE_CODES', weight: 40, description: 'the referee already converted through another code' };
    }
    if (refereeOtherCodes.clicked >= 2) {
      return { reason: 'MULTIPLE_CODES', weight: 30, description: `the referee used ${refereeOtherCodes.clicked} other codes recently` };
    }
    return null;
  },
};
