/**
 * The fraud service's reason codes (product decisions §5.3, README "Fraud rules")
 * in plain words, with the points each adds to the risk score.
 */
export const REASONS: Record<string, { words: string; points: string }> = {
  SELF_REFERRAL: { words: 'The referee is the referrer (same user id or same email)', points: '90–100' },
  EMAIL_ALIAS: { words: "The referee's email is an alias of the referrer's (dots or +tags)", points: '70' },
  SAME_DEVICE: { words: "The referee used the referrer's device", points: '60' },
  DEVICE_VELOCITY: { words: 'Many referrals or conversions came from this device recently', points: '50' },
  DISPOSABLE_EMAIL: { words: 'The email address is at a disposable-email domain', points: '45' },
  IP_VELOCITY: { words: 'Many referrals or conversions came from this IP address recently', points: '40' },
  REFERRER_VELOCITY: { words: 'The referrer had unusually many conversions recently', points: '40' },
  MULTIPLE_CODES: { words: 'The referee used several referral codes (or converted through another one)', points: '30–40' },
  SAME_IP: { words: "The referee's IP address is the referrer's", points: '35' },
  FAST_CONVERSION: { words: 'The conversion came only seconds after the click', points: '25' },
};

/** A reason code in words; an unknown code (a newer rule) as itself. */
export function reasonInWords(code: string): string {
  return REASONS[code]?.words ?? code.toLowerCase().replace(/_/g, ' ');
}

/** Risk score colour: the higher, the redder. */
export function riskColor(score: number): string {
  return score >= 80 ? 'red' : score >= 50 ? 'orange' : score >= 25 ? 'yellow' : 'gray';
}
