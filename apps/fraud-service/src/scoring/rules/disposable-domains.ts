/**
 * Throw-away mail services, shipped with the service (a subset of the
 * community-maintained disposable-email-domains list, CC0). Operators add
 * their own with the FRAUD_EXTRA_DISPOSABLE_DOMAINS setting. A subdomain of
 * a listed domain counts too (foo.mailinator.com).
 */
export const DISPOSABLE_DOMAINS: readonly string[] = [
  '0-mail.com', '10minutemail.com', '10minutemail.net', '10minutemail.co.uk', '10minutesmail.com', '10mail.org',
  '20minutemail.com', '20minutemail.it', '24hourmail.com', '33mail.com', '30minutemail.com', '60minutemail.com',
  'anonbox.net', 'anonymbox.com', 'antispam.de', 'armyspy.com', 'binkmail.com', 'bobmail.info', 'bofthew.com',
  'boximail.com', 'burnermail.io', 'byom.de', 'chacuo.net', 'cool.fr.nf', 'courriel.fr.nf', 'cuvox.de',
  'dayrep.com', 'deadaddress.com', 'despam.it', 'devnullmail.com', 'discard.email', 'discardmail.com',
  'discardmail.de', 'dispostable.com', 'dodgeit.com', 'dodgit.com', 'dropmail.me', 'dumpmail.de', 'e4ward.com',
  'einrot.com', 'email-fake.com', 'emailfake.com', 'emailondeck.com', 'emailsensei.com', 'emailtemporanea.com',
  'emailtemporanea.net', 'emailtemporar.ro', 'emailwarden.com', 'emltmp.com', 'ephemail.net',
  'fakeinbox.com', 'fakemail.net', 'fakemailgenerator.com', 'fastacura.com', 'filzmail.com', 'fleckens.hu',
  'getairmail.com', 'getnada.com', 'gishpuppy.com', 'grr.la', 'guerrillamail.biz', 'guerrillamail.com',
  'guerrillamail.de', 'guerrillamail.info', 'guerrillamail.net', 'guerrillamail.org', 'guerrillamailblock.com',
  'gustr.com', 'harakirimail.com', 'hidemail.de', 'hmamail.com', 'hulapla.de', 'imgof.com', 'imstations.com',
  'incognitomail.com', 'incognitomail.org', 'inboxbear.com', 'inboxkitten.com', 'instantemailaddress.com',
  'jetable.com', 'jetable.fr.nf', 'jetable.net', 'jetable.org', 'jourrapide.com', 'kasmail.com', 'killmail.com',
  'klzlk.com', 'kurzepost.de', 'letthemeatspam.com', 'lhsdv.com', 'lroid.com', 'mail-temp.com', 'mail.tm',
  'mail1a.de', 'mailcatch.com', 'maildrop.cc', 'maildu.de', 'maileater.com', 'mailexpire.com', 'mailforspam.com',
  'mailfreeonline.com', 'mailimate.com', 'mailin8r.com', 'mailinater.com', 'mailinator.com', 'mailinator.net',
  'mailinator.org', 'mailinator2.com', 'mailincubator.com', 'mailismagic.com', 'mailmetrash.com', 'mailmoat.com',
  'mailnesia.com', 'mailnull.com', 'mailpoof.com', 'mailsac.com', 'mailscrap.com', 'mailshell.com',
  'mailslite.com', 'mailtemp.info', 'mailtothis.com', 'mailzilla.com', 'meltmail.com', 'mintemail.com',
  'moakt.com', 'mohmal.com', 'mt2015.com', 'mvrht.com', 'mytemp.email', 'mytempemail.com', 'mytrashmail.com',
  'nada.email', 'neomailbox.com', 'nepwk.com', 'nobulk.com', 'noclickemail.com', 'nomail.xl.cx', 'nospam.ze.tc',
  'nospamfor.us', 'nowmymail.com', 'objectmail.com', 'odaymail.com', 'oneoffemail.com', 'onewaymail.com',
  'owlymail.com', 'pokemail.net', 'pookmail.com', 'proxymail.eu', 'putthisinyourspamdatabase.com',
  'quickinbox.com', 'rcpt.at', 'reallymymail.com', 'recode.me', 'rhyta.com', 'rmqkr.net', 'rppkn.com',
  'safetymail.info', 'sharklasers.com', 'shieldemail.com', 'shitmail.me', 'slaskpost.se', 'slopsbox.com',
  'smellfear.com', 'snakemail.com', 'sofimail.com', 'sogetthis.com', 'spam4.me', 'spamavert.com', 'spambob.com',
  'spambog.com', 'spambox.us', 'spamcero.com', 'spamex.com', 'spamfree24.org', 'spamgourmet.com', 'spamhole.com',
  'spaml.com', 'spammotel.com', 'spamspot.com', 'spamthis.co.uk', 'spamtrail.com', 'spoofmail.de',
  'superrito.com', 'teleworm.us', 'temp-mail.io', 'temp-mail.org', 'temp-mail.ru', 'tempail.com',
  'tempemail.co', 'tempemail.com', 'tempemail.net', 'tempinbox.com', 'tempmail.com', 'tempmail.de',
  'tempmail.dev', 'tempmail.net', 'tempmail.plus', 'tempmailaddress.com', 'tempmailo.com', 'tempomail.fr',
  'temporarily.de', 'temporaryemail.net', 'temporaryinbox.com', 'tempr.email', 'tempsky.com', 'thankyou2010.com',
  'thisisnotmyrealemail.com', 'throwam.com', 'throwawayemailaddress.com', 'throwawaymail.com', 'tmail.ws',
  'tmpmail.net', 'tmpmail.org', 'trash-mail.at', 'trash-mail.com', 'trash-mail.de', 'trash2009.com',
  'trashdevil.com', 'trashemail.de', 'trashmail.at', 'trashmail.com', 'trashmail.de', 'trashmail.io',
  'trashmail.me', 'trashmail.net', 'trashmail.org', 'trashymail.com', 'trbvm.com', 'turual.com', 'twinmail.de',
  'tyldd.com', 'uggsrock.com', 'upliftnow.com', 'veryrealemail.com', 'vomoto.com', 'vpn.st', 'wegwerfemail.de',
  'wegwerfmail.de', 'wegwerfmail.net', 'wegwerfmail.org', 'wh4f.org', 'whyspam.me', 'willselfdestruct.com',
  'wuzup.net', 'wuzupmail.net', 'xagloo.com', 'xemaps.com', 'xents.com', 'xoxy.net', 'yepmail.net',
  'yopmail.com', 'yopmail.fr', 'yopmail.net', 'yuurok.com', 'zehnminuten.de', 'zehnminutenmail.de',
  'zetmail.com', 'zippymail.info', 'zoemail.org',
];

/** Matches a domain or any subdomain of a listed one. */
export function disposableDomainMatcher(extra: readonly string[] = []): (domain: string) => boolean {
  const listed = new Set([...DISPOSABLE_DOMAINS, ...extra.map((d) => d.trim().toLowerCase()).filter(Boolean)]);
  return (domain) => {
    const parts = domain.toLowerCase().split('.');
    for (let i = 0; i < parts.length - 1; i += 1) if (listed.has(parts.slice(i).join('.'))) return true;
    return false;
  };
}
