import type { Campaign } from '../../api/types';
import { formatMoney } from '../../ui/format';

/** What a reward rule pays: a fixed amount, or a percent of the sale (docs/api.md#campaigns). */
export type RuleKind = 'FIXED' | 'PERCENT';

export const RULE_KINDS: { value: RuleKind; label: string }[] = [
  { value: 'FIXED', label: 'Fixed amount' },
  { value: 'PERCENT', label: 'Percent of sale' },
];

/**
 * A rule as the form edits it: its kind and the fields of both kinds, so
 * switching back and forth keeps what was typed; only the kind's fields are
 * checked and sent.
 */
export interface RuleFormValues {
  kind: RuleKind;
  amount: number | string;
  percent: number | string;
  /** The most a percentage pays; empty: no cap. */
  maxAmount: number | string;
}

/** A rule's terms as the API answers them (null where the rule has none). */
type RuleTerms = Pick<Campaign['referrerReward'], 'amount' | 'percent' | 'maxAmount'>;

/** The terms a request sends: exactly one of amount and percent, a cap only with a percent. */
export type RuleTermsSent = { amount: number } | { percent: number; maxAmount?: number };

export const NEW_RULE: RuleFormValues = { kind: 'FIXED', amount: 10, percent: 10, maxAmount: '' };

export const isBlank = (value: number | string) => typeof value === 'string' && value.trim() === '';

const num = (value: number | string) => (typeof value === 'number' ? value : Number(value));

/** A rule read from the API, as the form edits it. */
export function ruleFormOf(rule: RuleTerms): RuleFormValues {
  if (rule.percent !== null) return { ...NEW_RULE, kind: 'PERCENT', percent: rule.percent, maxAmount: rule.maxAmount ?? '' };
  return { ...NEW_RULE, kind: 'FIXED', amount: rule.amount ?? 0 };
}

/** The form's rule as a request sends it. */
export function ruleTermsOf(values: RuleFormValues): RuleTermsSent {
  if (values.kind === 'FIXED') return { amount: num(values.amount) };
  return isBlank(values.maxAmount) ? { percent: num(values.percent) } : { percent: num(values.percent), maxAmount: num(values.maxAmount) };
}

/** A percentage as written, up to the millionth (`10 %`, `2.5 %`, `0.0001 %`). */
export const formatShare = (percent: number) => `${percent.toLocaleString('en-US', { maximumFractionDigits: 6 })} %`;

/** A rule in words, with its currency: `€10.00`, `10 %`, `10 % (max €50.00)`. */
export function ruleText(rule: RuleTerms, currency: string): string {
  if (rule.percent === null) return formatMoney(rule.amount ?? 0, currency);
  return rule.maxAmount === null ? formatShare(rule.percent) : `${formatShare(rule.percent)} (max ${formatMoney(rule.maxAmount, currency)})`;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * When a campaign's rewards are payable and how long its referees' purchases earn, in words, always both:
 * `held 14 days` or `no holding period`; `recurring 12 months` or `first conversion only`.
 */
export function termsText(c: Pick<Campaign, 'holdDays' | 'recurringMonths'>): string {
  return [
    c.holdDays > 0 ? `held ${plural(c.holdDays, 'day', 'days')}` : 'no holding period',
    c.recurringMonths !== null ? `recurring ${plural(c.recurringMonths, 'month', 'months')}` : 'first conversion only',
  ].join(' · ');
}

/**
 * What a campaign pays, in words: `Referrer 10 % (max €50.00) · referee €5.00 · level 2 2.5 % · held 30 days ·
 * recurring 12 months`.
 */
export function rewardsText(c: Pick<Campaign, 'referrerReward' | 'refereeReward' | 'levels' | 'currency' | 'holdDays' | 'recurringMonths'>): string {
  return [
    `Referrer ${ruleText(c.referrerReward, c.currency)}`,
    c.refereeReward && `referee ${ruleText(c.refereeReward, c.currency)}`,
    ...[...c.levels].sort((a, b) => a.level - b.level).map((l) => `level ${l.level} ${ruleText(l, c.currency)}`),
    termsText(c),
  ]
    .filter(Boolean)
    .join(' · ');
}
