import type { Campaign, CreateCampaign, FulfillmentType, UpdateCampaign } from '../../api/types';

export const FULFILLMENT_TYPES: { value: FulfillmentType; label: string }[] = [
  { value: 'DISCOUNT_CODE', label: 'Discount code' },
  { value: 'COUPON_CODE', label: 'Coupon code' },
  { value: 'GIFT_CARD', label: 'Gift card' },
  { value: 'AUTOMATED', label: 'Automated' },
  { value: 'MANUAL', label: 'Manual' },
  { value: 'CUSTOM', label: 'Custom' },
];

/** Levels above the direct referrer (level 1 is the referrer reward): 2 to 10. */
export const MAX_LEVEL = 10;

export interface CampaignFormValues {
  name: string;
  status: 'ACTIVE' | 'PAUSED';
  referrerReward: { amount: number | string; fulfillmentType: FulfillmentType };
  doubleSided: boolean;
  refereeReward: { amount: number | string; fulfillmentType: FulfillmentType };
  /** Level n + 2 at index n: the referrer n + 1 steps above the direct one. */
  levels: { amount: number | string }[];
  attributionWindowDays: number | string;
  capRewards: boolean;
  maxRewardsPerReferrer: number | string;
  flagThreshold: number;
  rewardCodeValidityDays: number | string;
}

export const NEW_CAMPAIGN: CampaignFormValues = {
  name: '',
  status: 'ACTIVE',
  referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
  doubleSided: false,
  refereeReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
  levels: [],
  attributionWindowDays: 30,
  capRewards: false,
  maxRewardsPerReferrer: 10,
  flagThreshold: 50,
  rewardCodeValidityDays: 90,
};

/** A campaign as the form edits it. */
export function formValuesOf(campaign: Campaign): CampaignFormValues {
  const levels = [...campaign.levels].sort((a, b) => a.level - b.level);
  // The form numbers levels by position; a gap (levels 2 and 4) is filled with 0 so each keeps its number.
  const highest = levels.at(-1)?.level ?? 1;
  return {
    name: campaign.name,
    status: campaign.status === 'PAUSED' ? 'PAUSED' : 'ACTIVE',
    referrerReward: { ...campaign.referrerReward },
    doubleSided: campaign.refereeReward !== null,
    refereeReward: campaign.refereeReward ? { ...campaign.refereeReward } : { ...NEW_CAMPAIGN.refereeReward },
    levels: Array.from({ length: highest - 1 }, (_, i) => ({ amount: levels.find((l) => l.level === i + 2)?.amount ?? 0 })),
    attributionWindowDays: campaign.attributionWindowDays,
    capRewards: campaign.maxRewardsPerReferrer !== null,
    maxRewardsPerReferrer: campaign.maxRewardsPerReferrer ?? NEW_CAMPAIGN.maxRewardsPerReferrer,
    flagThreshold: campaign.fraud.flagThreshold,
    rewardCodeValidityDays: campaign.rewardCodeValidityDays,
  };
}

const num = (value: number | string) => (typeof value === 'number' ? value : Number(value));

function commonFields(values: CampaignFormValues) {
  return {
    name: values.name.trim(),
    referrerReward: { amount: num(values.referrerReward.amount), fulfillmentType: values.referrerReward.fulfillmentType },
    refereeReward: values.doubleSided ? { amount: num(values.refereeReward.amount), fulfillmentType: values.refereeReward.fulfillmentType } : null,
    levels: values.levels.map((l, i) => ({ level: i + 2, amount: num(l.amount) })),
    attributionWindowDays: num(values.attributionWindowDays),
    maxRewardsPerReferrer: values.capRewards ? num(values.maxRewardsPerReferrer) : null,
    fraud: { flagThreshold: values.flagThreshold },
    rewardCodeValidityDays: num(values.rewardCodeValidityDays),
  };
}

/** POST /campaigns: every field, the campaign starting ACTIVE or PAUSED. */
export function createRequest(values: CampaignFormValues): CreateCampaign {
  return { ...commonFields(values), status: values.status };
}

/** PATCH /campaigns/{id}: every field the form edits (levels replace the list; null removes the referee reward or the cap). The status changes through its own actions. */
export function updateRequest(values: CampaignFormValues): UpdateCampaign {
  return commonFields(values);
}

/** The form field an API field (`fraud.flagThreshold`, `levels.0.amount`) is edited in. */
export function formFieldOf(apiField: string): string {
  if (apiField === 'fraud.flagThreshold' || apiField === 'fraud') return 'flagThreshold';
  if (apiField === 'refereeReward' || apiField.startsWith('refereeReward.')) return apiField === 'refereeReward' ? 'refereeReward.amount' : apiField;
  return apiField;
}
