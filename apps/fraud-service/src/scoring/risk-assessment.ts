import type { FraudRule, RuleHit, RuleSettings, ScoringFacts } from './rules/fraud-rule';

export interface RiskAssessment {
  /** 0..100: the weights of the rules that fired, summed and capped. */
  riskScore: number;
  /** Reason codes, strongest first, each once. */
  reasons: string[];
  /** One human sentence when flagged, else null. */
  warning: string | null;
  flagged: boolean;
}

/**
 * Runs the rules that apply to the event and turns their hits into the
 * verdict of docs/product-decisions.md §5.2: flagged when the score reaches the campaign's
 * threshold.
 */
export function assessRisk(
  facts: ScoringFacts,
  rules: readonly FraudRule[],
  settings: RuleSettings,
  flagThreshold: number,
): RiskAssessment {
  const hits = rules
    .filter((rule) => rule.appliesTo.includes(facts.kind))
    .map((rule) => rule.evaluate(facts, settings))
    .filter((hit): hit is RuleHit => hit !== null)
    .sort((a, b) => b.weight - a.weight);
  const riskScore = Math.min(100, hits.reduce((sum, hit) => sum + hit.weight, 0));
  const reasons = [...new Set(hits.map((hit) => hit.reason))];
  const flagged = hits.length > 0 && riskScore >= flagThreshold;
  const subject = facts.kind === 'REFERRAL' ? 'referral' : 'conversion';
  const warning = flagged
    ? `This ${subject} was flagged for review (risk ${riskScore}/100): ${hits.map((hit) => hit.description).join('; ')}.`
    : null;
  return { riskScore, reasons, warning, flagged };
}
