import { emailDomain } from './email-address';
import type { FraudRule } from './fraud-rule';

/** DISPOSABLE_EMAIL: the acting user's address is at a throw-away mail service. */
export const disposableEmail: FraudRule = {
  name: 'disposable-email',
  appliesTo: ['REFERRAL', 'CONVERSION'],
  evaluate: (facts, settings) => {
    const domain = emailDomain(facts.actor.email);
    return domain && settings.isDisposableDomain(domain)
      ? { reason: 'DISPOSABLE_EMAIL', weight: 45, description: `the email address is at the disposable domain ${domain}` }
      : null;
  },
};
