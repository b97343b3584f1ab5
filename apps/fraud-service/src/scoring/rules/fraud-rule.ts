/**
 * What one scoring knows: the event being scored, what the referrer's own
 * signals say, and counts of recent signals of the same app (every replica
 * writes them to the same database, so the counts are global).
 */
export interface ScoringFacts {
  kind: 'REFERRAL' | 'CONVERSION';
  at: Date;
  referrerId: string;
  /** The referred user, when known (always, for a conversion). */
  refereeId: string | null;
  referralCode: string;
  /** The acting end user's context: the referrer creating a referral, the referee converting. */
  actor: { ip: string | null; deviceId: string | null; email: string | null };
  /** The referrer as their referral's signal (and the referral record) describe them. */
  referrer: { ip: string | null; deviceId: string | null; email: string | null };
  /** Other signals of the same kind inside the velocity window. */
  recent: { sameIp: number; sameDevice: number; referrerConversions: number };
  /** Latest click on this code by the same referee, device or IP before `at`. */
  lastMatchingClickAt: Date | null;
  /** Other codes this referee converted through, and clicked with their id, recently. */
  refereeOtherCodes: { converted: number; clicked: number };
}

export interface RuleSettings {
  ipVelocityLimit: number;
  deviceVelocityLimit: number;
  referrerVelocityLimit: number;
  fastConversionSeconds: number;
  isDisposableDomain: (domain: string) => boolean;
}

export interface RuleHit {
  /** Stable public reason code (docs/product-decisions.md §5.2). */
  reason: string;
  /** Points added to the 0..100 risk score. */
  weight: number;
  /** Part of the human warning sentence, e.g. "the referee is the referrer". */
  description: string;
}

/** One rule: a pure function of the facts, so each is unit-tested on its own. */
export interface FraudRule {
  name: string;
  appliesTo: ReadonlyArray<ScoringFacts['kind']>;
  evaluate(facts: ScoringFacts, settings: RuleSettings): RuleHit | null;
}
