import type { FormValidateInput } from '@mantine/form';
import { instantOf } from '../../ui/local-time';
import type { CampaignFormValues } from './campaign-request';
import { isKnownCurrency } from './currencies';
import type { RuleFormValues, RuleKind } from './reward-rule-form';

// The API's bounds on a campaign (docs/api.md#conventions), restated: the form refuses on the field what the API would
// refuse, and never clamps or rounds a value the operator typed into one it did not.
const MAX_AMOUNT = 1_000_000_000;
const MAX_COUNT = 2_147_483_647;
const MAX_DAYS = 3650;
const MAX_URL_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;
const MAX_HOLD_DAYS = 365;
const MAX_RECURRING_MONTHS = 120;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const empty = (value: number | string) => typeof value === 'string' && value.trim() === '';

/** A reward amount: 0 to 10^9, decimals allowed. */
function amountError(value: number | string): string | null {
  if (empty(value)) return 'Required';
  const amount = Number(value);
  if (!Number.isFinite(amount)) return 'Must be a number';
  if (amount < 0) return 'Must not be negative';
  return amount > MAX_AMOUNT ? `Must be at most ${MAX_AMOUNT.toLocaleString('en')}` : null;
}

/** A percent of the sale: more than 0, at most 100. */
function percentError(value: number | string): string | null {
  if (empty(value)) return 'Required';
  const percent = Number(value);
  if (!Number.isFinite(percent)) return 'Must be a number';
  if (percent <= 0) return 'Must be more than 0';
  return percent > 100 ? 'Must be at most 100' : null;
}

/** A percentage's cap: nothing, or more than 0 and at most 10^9. */
function capError(value: number | string): string | null {
  if (empty(value)) return null;
  const cap = Number(value);
  if (!Number.isFinite(cap)) return 'Must be a number';
  if (cap <= 0) return 'Must be more than 0 (empty: no cap)';
  return cap > MAX_AMOUNT ? `Must be at most ${MAX_AMOUNT.toLocaleString('en')}` : null;
}

/** The rule a field at `path` (`referrerReward.percent`, `levels.1.amount`) belongs to. */
function ruleAt(values: CampaignFormValues, path: string): RuleFormValues {
  const [head, index] = path.split('.');
  return head === 'levels' ? values.levels[Number(index)] : values[head as 'referrerReward' | 'refereeReward'];
}

/** A check of a rule's field that applies only to rules of one kind (a fixed amount's, a percentage's). */
const forKind =
  (kind: RuleKind, check: (value: number | string) => string | null) =>
  (value: number | string, values: CampaignFormValues, path: string): string | null =>
    ruleAt(values, path).kind === kind ? check(value) : null;

/** A rule's fields: the amount of a fixed one; the percent and optional cap of a percentage. */
const ruleValidation = { amount: forKind('FIXED', amountError), percent: forKind('PERCENT', percentError), maxAmount: forKind('PERCENT', capError) };

/** A whole number from `min` to `max` (days, a cap). */
function wholeError(value: number | string, min: number, max: number): string | null {
  if (empty(value)) return 'Required';
  const n = Number(value);
  if (!Number.isInteger(n)) return 'Must be a whole number';
  if (n < min) return `Must be at least ${min}`;
  return n > max ? `Must be at most ${max.toLocaleString('en')}` : null;
}

/** A name: not blank, at most 200 characters (as the API counts them: code points), no control characters. */
function nameError(value: string): string | null {
  const name = value.trim();
  if (!name) return 'Give the campaign a name';
  if ([...name].length > MAX_NAME_LENGTH) return `At most ${MAX_NAME_LENGTH} characters`;
  return CONTROL.test(name) ? 'Must not hold control characters' : null;
}

/** An absolute http(s) URL of at most 2048 characters, or nothing. The API's finer rules (e.g. no credentials) come back on the field. */
function landingUrlError(value: string): string | null {
  const url = value.trim();
  if (!url) return null;
  if (url.length > MAX_URL_LENGTH) return `At most ${MAX_URL_LENGTH} characters`;
  // Printable ASCII only: the API takes a URL as written, not as a browser would percent-encode it.
  if (!/^[\x21-\x7e]+$/.test(url)) return 'Must not hold spaces or characters outside ASCII (percent-encode them)';
  try {
    const parsed = new URL(url);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname) return null;
  } catch {
    // Not a URL: the message below.
  }
  return 'An http or https URL, such as https://shop.example.com/welcome';
}

/** The end of the schedule, when both bounds are set, comes after its start. */
function endsAtError(endsAt: string, values: CampaignFormValues): string | null {
  const start = instantOf(values.startsAt);
  const end = instantOf(endsAt);
  return start && end && Date.parse(end) <= Date.parse(start) ? 'Must be after the start' : null;
}

/** Every rule of the campaign form, on the field it concerns; a hidden field (a single-sided referee reward, no cap) is not checked. */
export const campaignValidation: FormValidateInput<CampaignFormValues> = {
  name: nameError,
  referrerReward: ruleValidation,
  refereeReward: {
    amount: (v, values, path) => (values.doubleSided ? ruleValidation.amount(v, values, path) : null),
    percent: (v, values, path) => (values.doubleSided ? ruleValidation.percent(v, values, path) : null),
    maxAmount: (v, values, path) => (values.doubleSided ? ruleValidation.maxAmount(v, values, path) : null),
  },
  levels: ruleValidation,
  currency: (v) => (isKnownCurrency(v) ? null : 'Pick a currency'),
  holdDays: (v) => wholeError(v, 0, MAX_HOLD_DAYS),
  recurringMonths: (v) => (empty(v) ? null : wholeError(v, 1, MAX_RECURRING_MONTHS)),
  attributionWindowDays: (v) => wholeError(v, 1, MAX_DAYS),
  maxRewardsPerReferrer: (v, values) => (values.capRewards ? wholeError(v, 1, MAX_COUNT) : null),
  rewardCodeValidityDays: (v) => wholeError(v, 1, MAX_DAYS),
  landingUrl: landingUrlError,
  endsAt: endsAtError,
};
