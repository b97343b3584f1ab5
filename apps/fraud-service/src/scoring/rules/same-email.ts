import { normalizeEmail, sameExactEmail } from './email-address';
import type { FraudRule } from './fraud-rule';

/**
 * The referee's email is the referrer's: SELF_REFERRAL when identical,
 * EMAIL_ALIAS when only the same after removing dots and plus-aliases.
 */
export const sameEmail: FraudRule = {
  name: 'same-email',
  appliesTo: ['CONVERSION'],
  evaluate: ({ actor, referrer }) => {
    if (sameExactEmail(actor.email, referrer.email)) {
      return { reason: 'SELF_REFERRAL', weight: 90, description: "the referee's email is the referrer's" };
    }
    const a = normalizeEmail(actor.email);
    if (a !== null && a === normalizeEmail(referrer.email)) {
      return { reason: 'EMAIL_ALIAS', weight: 70, description: "the referee's email is an alias of the referrer's" };
    }
    return null;
  },
};
