import type { RiskAssessment } from './risk-assessment';
import { assessRisk } from './risk-assessment';
import type { FraudRule, RuleSettings } from './rules/fraud-rule';
import type { NewSignal } from '../signals/signal.repository';
import type { SignalHistory } from './signal-history';

export interface ScoreInput {
  appId: string;
  signal: NewSignal;
  referrerEmail: string | null;
  flagThreshold: number;
}

/** Records the event's signal, gathers the facts and runs the rules. */
export class FraudScorer {
  constructor(
    private readonly history: SignalHistory,
    private readonly rules: readonly FraudRule[],
    private readonly settings: RuleSettings,
  ) {}

  async score(input: ScoreInput): Promise<RiskAssessment> {
    // The stored signal is the record (a flag's evidence); the counts come from the windows the
    // signal joins while they are read (SignalHistory.facts): the two are independent, so side by side.
    const [, facts] = await Promise.all([
      this.history.record(input.appId, input.signal),
      this.history.facts(input.appId, input.signal, input.referrerEmail),
    ]);
    return assessRisk(facts, this.rules, this.settings, input.flagThreshold);
  }

  recordClicks(clicks: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    return this.history.recordMany(clicks);
  }
}
