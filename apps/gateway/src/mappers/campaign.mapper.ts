import { DEFAULT_CODE_VALIDITY_DAYS, CampaignStatus, FulfillmentType, enumName, type Campaign, type RewardRule } from '@ris/contracts';
import { isoTime } from './proto-json';

const rewardRule = (rule: RewardRule | undefined) =>
  rule ? { amount: rule.amount, fulfillmentType: enumName(FulfillmentType, rule.fulfillmentType) ?? null } : null;

export function campaignJson(c: Campaign) {
  return {
    id: c.id,
    name: c.name,
    status: enumName(CampaignStatus, c.status) ?? null,
    referrerReward: rewardRule(c.referrerReward),
    refereeReward: rewardRule(c.refereeReward),
    levels: c.levels.map((l) => ({ level: l.level, amount: l.amount })),
    attributionWindowDays: c.attributionWindowDays,
    maxRewardsPerReferrer: c.maxRewardsPerReferrer ?? null,
    fraud: { flagThreshold: c.fraud?.flagThreshold ?? 50 },
    rewardCodeValidityDays: c.rewardCodeValidityDays || DEFAULT_CODE_VALIDITY_DAYS,
    landingUrl: c.landingUrl ?? null,
    createdAt: isoTime(c.createdAt),
    updatedAt: isoTime(c.updatedAt),
  };
}
