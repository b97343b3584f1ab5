import {
  DEFAULT_CODE_VALIDITY_DAYS,
  FulfillmentType,
  type Campaign as CampaignMessage,
  type LevelReward as LevelRewardMessage,
  type RewardRule as RewardRuleMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { decimalAmount } from '../openapi/number-fields';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { CampaignStatuses } from './referral.mapper';

export { CampaignStatuses };
export const FulfillmentTypes = publicEnum(FulfillmentType);

/** A reward of a campaign: in its requests and its answers alike. */
export const RewardRule = entity<RewardRuleMessage>()('RewardRule', {
  amount: decimalAmount(),
  fulfillmentType: FulfillmentTypes.field(),
});

export const LevelReward = entity<LevelRewardMessage>()(
  'LevelReward',
  {
    level: z.number().int().min(2, 'levels start at 2 (level 1 is referrerReward)').max(10),
    amount: decimalAmount(),
  },
  { description: 'Reward for the referrer `level` steps above the converting referee.' },
);

const rewardRule = (rule: RewardRuleMessage | undefined) => (rule ? RewardRule.json(rule) : null);

export const Campaign = entity<CampaignMessage>()('Campaign', {
  id: z.string(),
  name: z.string(),
  status: CampaignStatuses.field(),
  referrerReward: from(RewardRule.schema, (c: CampaignMessage) => rewardRule(c.referrerReward)),
  refereeReward: from(z.union([RewardRule.schema, z.null()]).openapi({ description: 'null unless the campaign is double-sided' }), (c: CampaignMessage) => rewardRule(c.refereeReward)),
  levels: LevelReward.list(),
  attributionWindowDays: z.number().int(),
  maxRewardsPerReferrer: z.number().int().nullable(),
  fraud: from(z.object({ flagThreshold: z.number().int() }), (c: CampaignMessage) => ({ flagThreshold: c.fraud?.flagThreshold ?? 50 })),
  rewardCodeValidityDays: from(z.number().int(), (c: CampaignMessage) => c.rewardCodeValidityDays || DEFAULT_CODE_VALIDITY_DAYS),
  landingUrl: z.string().nullable().openapi({ description: 'null: the hosted links of the campaign answer 404' }),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const campaignJson = Campaign.json;
