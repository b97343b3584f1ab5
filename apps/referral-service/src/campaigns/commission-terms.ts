import { MAX_HOLD_DAYS, MAX_RECURRING_MONTHS, isCurrencyCode } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';
import type { CampaignDoc, RuleTerms } from './campaign.model';

// The rules of a campaign's commission settings (docs/product-decisions.md §3.7–3.9), which the gateway also checks;
// repeated here because the service is the owner. Each message names the field as the public API does.


const isWhole = (value: number, min: number, max: number) => Number.isInteger(value) && value >= min && value <= max;

/** A fixed amount (≥ 0), or a percent in (0, 100] with an optional cap (> 0); never both, and a cap only with a percent. */
function checkRule(rule: RuleTerms, field: string): void {
  const percent = rule.percent ?? null;
  const cap = rule.maxAmount ?? null;
  if (percent === null) {
    if (!Number.isFinite(rule.amount) || rule.amount < 0) throw invalid(`${field}.amount must be a non-negative number`);
    if (cap !== null) throw invalid(`${field}.maxAmount caps a percent: it needs ${field}.percent`);
    return;
  }
  // The contract carries a fixed amount of 0 when percent is set; any other is both at once.
  if (rule.amount !== 0) throw invalid(`${field}: give either amount or percent, not both`);
  if (!Number.isFinite(percent) || percent <= 0 || percent > 100) throw invalid(`${field}.percent must be more than 0 and at most 100`);
  if (cap !== null && (!Number.isFinite(cap) || cap <= 0)) throw invalid(`${field}.maxAmount must be more than 0`);
}

/** Every rule of the campaign, its currency, its holding period and its recurrence. */
export function checkCommissionTerms(
  c: Pick<CampaignDoc, 'referrerReward' | 'refereeReward' | 'levels' | 'currency' | 'holdDays' | 'recurringMonths'>,
): void {
  checkRule(c.referrerReward, 'referrerReward');
  if (c.refereeReward) checkRule(c.refereeReward, 'refereeReward');
  c.levels.forEach((level, i) => checkRule(level, `levels[${i}]`));
  if (!isCurrencyCode(c.currency)) throw invalid('currency must be an ISO 4217 code, such as USD or EUR');
  if (!isWhole(c.holdDays, 0, MAX_HOLD_DAYS)) throw invalid(`holdDays must be a whole number from 0 to ${MAX_HOLD_DAYS}`);
  if (c.recurringMonths !== null && !isWhole(c.recurringMonths, 1, MAX_RECURRING_MONTHS)) {
    throw invalid(`recurringMonths must be a whole number from 1 to ${MAX_RECURRING_MONTHS}, or null`);
  }
}
