import type { Campaign, CreateCampaign, FulfillmentType, UpdateCampaign } from '../../api/types';
import { instantOf, localOf } from '../../ui/local-time';
import { NEW_RULE, isBlank, ruleFormOf, ruleTermsOf, type RuleFormValues } from './reward-rule-form';

export const FULFILLMENT_TYPES: { value: FulfillmentType; label: string }[] = [
  { value: 'DISCOUNT_CODE', label: 'Discount code' },
  { value: 'COUPON_CODE', label: 'Coupon code' },
  { value: 'GIFT_CARD', label: 'Gift card' },
  { value: 'AUTOMATED', label: 'Automated' },
  { value: 'MANUAL', label: 'Manual' },
  { value: 'CUSTOM', label: 'Custom' },
  // Paid out by the Payouts page (GET /payouts/due, POST /payouts), never a code.
  { value: 'CASH', label: 'Cash (paid out)' },
];

/** Levels above the direct referrer (level 1 is the referrer reward): 2 to 10. */
export const MAX_LEVEL = 10;

export interface CampaignFormValues {
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  referrerReward: RuleFormValues & { fulfillmentType: FulfillmentType };
  doubleSided: boolean;
  refereeReward: RuleFormValues & { fulfillmentType: FulfillmentType };
  /** Level n + 2 at index n: the referrer n + 1 steps above the direct one. */
  levels: RuleFormValues[];
  /** ISO 4217; fixed once the campaign exists. */
  currency: string;
  /** Days a clean conversion's rewards are held. */
  holdDays: number | string;
  /** Months later purchases earn again; empty: not recurring. */
  recurringMonths: number | string;
  attributionWindowDays: number | string;
  capRewards: boolean;
  maxRewardsPerReferrer: number | string;
  flagThreshold: number;
  rewardCodeValidityDays: number | string;
  /** Where the hosted links send visitors; empty: none. */
  landingUrl: string;
  /** The schedule, `datetime-local` in the operator's time; empty: no bound on that side. */
  startsAt: string;
  endsAt: string;
  /** The schedule as read (null: none): a bound still shown as read is not sent again, since the field holds minutes and the API milliseconds. */
  scheduleAsRead: { startsAt: string | null; endsAt: string | null };
}

export const NEW_CAMPAIGN: CampaignFormValues = {
  name: '',
  status: 'ACTIVE',
  referrerReward: { ...NEW_RULE, fulfillmentType: 'DISCOUNT_CODE' },
  doubleSided: false,
  refereeReward: { ...NEW_RULE, fulfillmentType: 'DISCOUNT_CODE' },
  levels: [],
  currency: 'USD',
  holdDays: 0,
  recurringMonths: '',
  attributionWindowDays: 30,
  capRewards: false,
  maxRewardsPerReferrer: 10,
  flagThreshold: 50,
  rewardCodeValidityDays: 90,
  landingUrl: '',
  startsAt: '',
  endsAt: '',
  scheduleAsRead: { startsAt: null, endsAt: null },
};

/** A campaign as the form edits it. */
export function formValuesOf(campaign: Campaign): CampaignFormValues {
  const levels = [...campaign.levels].sort((a, b) => a.level - b.level);
  // The form numbers levels by position; a gap (levels 2 and 4) is filled with 0 so each keeps its number.
  const highest = levels.at(-1)?.level ?? 1;
  return {
    name: campaign.name,
    status: campaign.status === 'PAUSED' ? 'PAUSED' : 'ACTIVE',
    referrerReward: { ...ruleFormOf(campaign.referrerReward), fulfillmentType: campaign.referrerReward.fulfillmentType },
    doubleSided: campaign.refereeReward !== null,
    refereeReward: campaign.refereeReward
      ? { ...ruleFormOf(campaign.refereeReward), fulfillmentType: campaign.refereeReward.fulfillmentType }
      : { ...NEW_CAMPAIGN.refereeReward },
    levels: Array.from({ length: highest - 1 }, (_, i) => {
      const level = levels.find((l) => l.level === i + 2);
      return level ? ruleFormOf(level) : { ...NEW_RULE, amount: 0 };
    }),
    currency: campaign.currency,
    holdDays: campaign.holdDays,
    recurringMonths: campaign.recurringMonths ?? '',
    attributionWindowDays: campaign.attributionWindowDays,
    capRewards: campaign.maxRewardsPerReferrer !== null,
    maxRewardsPerReferrer: campaign.maxRewardsPerReferrer ?? NEW_CAMPAIGN.maxRewardsPerReferrer,
    flagThreshold: campaign.fraud.flagThreshold,
    rewardCodeValidityDays: campaign.rewardCodeValidityDays,
    landingUrl: campaign.landingUrl ?? '',
    startsAt: localOf(campaign.startsAt),
    endsAt: localOf(campaign.endsAt),
    scheduleAsRead: { startsAt: campaign.startsAt, endsAt: campaign.endsAt },
  };
}

const num = (value: number | string) => (typeof value === 'number' ? value : Number(value));

function commonFields(values: CampaignFormValues) {
  return {
    name: values.name.trim(),
    referrerReward: { ...ruleTermsOf(values.referrerReward), fulfillmentType: values.referrerReward.fulfillmentType },
    refereeReward: values.doubleSided ? { ...ruleTermsOf(values.refereeReward), fulfillmentType: values.refereeReward.fulfillmentType } : null,
    levels: values.levels.map((l, i) => ({ level: i + 2, ...ruleTermsOf(l) })),
    attributionWindowDays: num(values.attributionWindowDays),
    maxRewardsPerReferrer: values.capRewards ? num(values.maxRewardsPerReferrer) : null,
    fraud: { flagThreshold: values.flagThreshold },
    rewardCodeValidityDays: num(values.rewardCodeValidityDays),
    holdDays: num(values.holdDays),
  };
}

/** Recurring months as sent: the number, or null (not recurring) when the field is empty. */
const recurringMonthsOf = (values: CampaignFormValues) => (isBlank(values.recurringMonths) ? null : num(values.recurringMonths));

/**
 * POST /campaigns: every field, the campaign starting ACTIVE or PAUSED, in its currency; an empty landing URL, schedule
 * bound or recurrence is left out.
 */
export function createRequest(values: CampaignFormValues): CreateCampaign {
  const landingUrl = values.landingUrl.trim();
  const startsAt = instantOf(values.startsAt);
  const endsAt = instantOf(values.endsAt);
  const recurringMonths = recurringMonthsOf(values);
  return {
    ...commonFields(values),
    status: values.status,
    currency: values.currency as CreateCampaign['currency'],
    ...(recurringMonths !== null ? { recurringMonths } : {}),
    ...(landingUrl ? { landingUrl } : {}),
    ...(startsAt ? { startsAt } : {}),
    ...(endsAt ? { endsAt } : {}),
  };
}

/** A schedule bound as PATCH sends it: nothing while the field shows it as read; an emptied field removes it (null). */
function boundChange(field: 'startsAt' | 'endsAt', values: CampaignFormValues): Partial<Record<typeof field, string | null>> {
  return values[field] === localOf(values.scheduleAsRead[field]) ? {} : { [field]: instantOf(values[field]) };
}

/**
 * PATCH /campaigns/{id}: every field the form edits (levels replace the list; null removes the referee reward, the cap,
 * the landing URL, a schedule bound or the recurrence). The status changes through its own actions; the currency is
 * fixed once the campaign exists, so it is not sent.
 */
export function updateRequest(values: CampaignFormValues): UpdateCampaign {
  return {
    ...commonFields(values),
    recurringMonths: recurringMonthsOf(values),
    landingUrl: values.landingUrl.trim() || null,
    ...boundChange('startsAt', values),
    ...boundChange('endsAt', values),
  };
}

const RULE_TERMS = ['amount', 'percent', 'maxAmount'];

/**
 * The form field an API field (`fraud.flagThreshold`, `levels.0.amount`) is edited in. A rule's error goes to a field
 * the rule shows: one about the whole rule (`referrerReward`, `levels.1`) or a term its kind hides lands on the field
 * of its kind (the amount of a fixed reward, the percent of a percentage).
 */
export function formFieldOf(apiField: string, values: CampaignFormValues = NEW_CAMPAIGN): string {
  if (apiField === 'fraud.flagThreshold' || apiField === 'fraud') return 'flagThreshold';
  const parts = apiField.split('.');
  const [head] = parts;
  const rulePath = head === 'levels' ? parts.slice(0, 2) : parts.slice(0, 1);
  const rule: RuleFormValues | undefined =
    head === 'referrerReward' || head === 'refereeReward' ? values[head] : head === 'levels' && parts.length >= 2 ? values.levels[Number(parts[1])] : undefined;
  if (!rule) return apiField;
  const term = parts[rulePath.length];
  const shown = rule.kind === 'FIXED' ? ['amount'] : ['percent', 'maxAmount'];
  if (term === undefined || (RULE_TERMS.includes(term) && !shown.includes(term))) return [...rulePath, shown[0]].join('.');
  return apiField;
}
