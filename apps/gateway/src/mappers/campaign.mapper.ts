import {
  CampaignEffectiveStatus,
  DEFAULT_CODE_VALIDITY_DAYS,
  DEFAULT_CURRENCY,
  FulfillmentType,
  type Campaign as CampaignMessage,
  type LevelReward as LevelRewardMessage,
  type RewardRule as RewardRuleMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { CampaignStatuses } from './referral.mapper';
import { checkRuleTerms, ruleMetadata, ruleTermsInput, ruleTermsOutput } from './rule-terms';

export { CampaignStatuses };
export const FulfillmentTypes = publicEnum(FulfillmentType);
export const CampaignEffectiveStatuses = publicEnum(CampaignEffectiveStatus);

const LEVEL = z.number().int().min(2, 'levels start at 2 (level 1 is referrerReward)').max(10);
const LEVEL_REWARD = 'Reward for the referrer `level` steps above the converting referee';

/** A reward of a campaign as answers show it (rule-terms.ts: a fixed amount or a percentage). */
export const RewardRule = entity<RewardRuleMessage>()(
  'RewardRule',
  { ...ruleTermsOutput, fulfillmentType: FulfillmentTypes.field() },
  ruleMetadata('What the referrer (or the referee) earns on a conversion', { request: false }),
);

export const LevelReward = entity<LevelRewardMessage>()('LevelReward', { level: LEVEL, ...ruleTermsOutput }, ruleMetadata(LEVEL_REWARD, { request: false }));

/** A reward of a campaign as requests set it. */
export const RewardRuleInput = z
  .object({ ...ruleTermsInput, fulfillmentType: FulfillmentTypes.schema })
  .superRefine(checkRuleTerms)
  .openapi('RewardRuleInput', ruleMetadata('What the referrer (or the referee) earns on a conversion', { request: true }));

export const LevelRewardInput = z
  .object({ level: LEVEL, ...ruleTermsInput })
  .superRefine(checkRuleTerms)
  .openapi('LevelRewardInput', ruleMetadata(LEVEL_REWARD, { request: true }));

const rewardRule = (rule: RewardRuleMessage | undefined) => (rule ? RewardRule.json(rule) : null);

export const Campaign = entity<CampaignMessage>()('Campaign', {
  id: z.string(),
  name: z.string(),
  status: CampaignStatuses.field((s) => s.openapi({ description: 'As set: only ACTIVE takes referrals and conversions, and only inside the schedule (`effectiveStatus`)' })),
  effectiveStatus: from(
    CampaignEffectiveStatuses.schema.openapi({
      description:
        'What the campaign does now, derived when read (never set): `status` within the schedule. ENDED when `status` is ENDED or `endsAt` has passed; ' +
        'PAUSED when paused; SCHEDULED when ACTIVE before `startsAt`; else ACTIVE, the one state that takes new referrals and conversions.',
    }),
    // A referral service one release behind sends no effective status: its status is what it enforces.
    (c: CampaignMessage) => CampaignEffectiveStatuses.name(c.effectiveStatus) ?? CampaignStatuses.name(c.status),
  ),
  startsAt: time(timestamp.nullable().openapi({ description: 'The campaign takes referrals and conversions from then on (inclusive); null: no start' })),
  endsAt: time(timestamp.nullable().openapi({ description: 'The campaign takes none from then on (exclusive); null: no end' })),
  referrerReward: from(RewardRule.schema, (c: CampaignMessage) => rewardRule(c.referrerReward)),
  refereeReward: from(z.union([RewardRule.schema, z.null()]).openapi({ description: 'null unless the campaign is double-sided' }), (c: CampaignMessage) => rewardRule(c.refereeReward)),
  levels: LevelReward.list(),
  attributionWindowDays: z.number().int(),
  maxRewardsPerReferrer: z.number().int().nullable(),
  fraud: from(z.object({ flagThreshold: z.number().int() }), (c: CampaignMessage) => ({ flagThreshold: c.fraud?.flagThreshold ?? 50 })),
  rewardCodeValidityDays: from(z.number().int(), (c: CampaignMessage) => c.rewardCodeValidityDays || DEFAULT_CODE_VALIDITY_DAYS),
  landingUrl: z.string().nullable().openapi({ description: 'null: the hosted links of the campaign answer 404' }),
  currency: from(
    currencyCode('ISO 4217 code of every amount of the campaign: its rules, its conversions and its rewards'),
    // A referral service one release behind sends none: its campaigns are USD.
    (c: CampaignMessage) => c.currency || DEFAULT_CURRENCY,
  ),
  holdDays: z.number().int().openapi({ description: "Days a clean conversion's rewards are held before they are payable (0: none)" }),
  recurringMonths: z
    .number()
    .int()
    .nullable()
    .openapi({ description: "Months after the conversion during which the referee's later purchases earn again; null: only the conversion earns" }),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const campaignJson = Campaign.json;

/** The filters of a campaign list (GET /campaigns, GET /stats/campaigns), each as the referral service takes it. */
export const campaignListFilters = {
  status: CampaignStatuses.schema.optional().openapi({ description: 'As set' }),
  effectiveStatus: CampaignEffectiveStatuses.schema
    .optional()
    .openapi({ description: 'What the campaign does now (its status within its schedule): e.g. SCHEDULED, or ENDED whether ended or past its end' }),
};

export const campaignListRequest = (query: { page: number; limit: number; status?: CampaignStatusName; effectiveStatus?: CampaignEffectiveStatusName }) => ({
  page: { page: query.page, limit: query.limit },
  status: CampaignStatuses.value(query.status),
  effectiveStatus: CampaignEffectiveStatuses.value(query.effectiveStatus),
});

type CampaignStatusName = (typeof CampaignStatuses.names)[number];
type CampaignEffectiveStatusName = (typeof CampaignEffectiveStatuses.names)[number];
