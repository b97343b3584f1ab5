import { disposableDomainMatcher } from './disposable-domains';
import { disposableEmail } from './disposable-email';
import { cleanFacts, ruleSettings } from './facts-fixture';

const withEmail = (email: string | null) => cleanFacts({ actor: { ip: null, deviceId: null, email } });

describe('disposable-email rule (DISPOSABLE_EMAIL)', () => {
  it('fires for a shipped disposable domain and its subdomains', () => {
    expect(disposableEmail.evaluate(withEmail('bob@Mailinator.com'), ruleSettings)).toMatchObject({ reason: 'DISPOSABLE_EMAIL', weight: 45 });
    expect(disposableEmail.evaluate(withEmail('bob@inbox.yopmail.com'), ruleSettings)).not.toBeNull();
  });

  it('stays silent for ordinary domains, look-alike domains and no email', () => {
    expect(disposableEmail.evaluate(withEmail('bob@gmail.com'), ruleSettings)).toBeNull();
    expect(disposableEmail.evaluate(withEmail('bob@notmailinator.com'), ruleSettings)).toBeNull();
    expect(disposableEmail.evaluate(withEmail(null), ruleSettings)).toBeNull();
  });

  it('takes extra domains from the operator', () => {
    const settings = { ...ruleSettings, isDisposableDomain: disposableDomainMatcher([' Burner.Example ']) };
    expect(disposableEmail.evaluate(withEmail('x@burner.example'), settings)).not.toBeNull();
  });
});
