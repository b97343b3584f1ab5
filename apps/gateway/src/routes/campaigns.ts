import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { DEFAULT_CODE_VALIDITY_DAYS, DEFAULT_CURRENCY, MAX_HOLD_DAYS, MAX_RECURRING_MONTHS } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import {
  Campaign,
  CampaignStatuses,
  FulfillmentTypes,
  LevelRewardInput,
  RewardRuleInput,
  campaignJson,
  campaignListFilters,
  campaignListRequest,
} from '../mappers/campaign.mapper';
import { ruleTermsMessage } from '../mappers/rule-terms';
import { Pagination, dateTime, id, pageQuery, pagination } from '../openapi/common-schemas';
import { currencyField } from '../openapi/money-fields';
import { count, days } from '../openapi/number-fields';
import { httpUrl, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const LEVEL_NUMBERS = [2, 3, 4, 5, 6, 7, 8, 9, 10];

const levels = z
  .array(LevelRewardInput)
  .max(9)
  .refine((list) => new Set(list.map((l) => l.level)).size === list.length, 'each level may appear once')
  .openapi({
    description: 'At most one entry per level',
    // "Each level at most once" in JSON Schema: for every level, at most one item contains it.
    allOf: LEVEL_NUMBERS.map((level) => ({
      contains: { type: 'object', properties: { level: { const: level } }, required: ['level'] },
      minContains: 0,
      maxContains: 1,
    })),
  });

const STARTS_AT = 'From then on (inclusive) the campaign takes referrals and conversions; before, they are 422 CAMPAIGN_INACTIVE';
const ENDS_AT =
  'From then on (exclusive) the campaign takes no referrals or conversions (422 CAMPAIGN_INACTIVE). After `startsAt` when both are set: 422 INVALID_RANGE otherwise';

const HOLD_DAYS = "Days a clean conversion's rewards are held PENDING before they are payable (0: approved at once)";
const RECURRING_MONTHS =
  "Months after the conversion during which the referee's later purchases earn the campaign's rewards again";
const CURRENCY = "Of every amount of the campaign: its rules, its conversions and its rewards. A conversion naming another currency is 422 CURRENCY_MISMATCH";

const CampaignFields = {
  name: label(),
  status: CampaignStatuses.schema,
  referrerReward: RewardRuleInput,
  refereeReward: z.union([RewardRuleInput, z.null()]).openapi({ description: 'Set for double-sided campaigns.' }),
  levels,
  attributionWindowDays: days(),
  maxRewardsPerReferrer: count(1).nullable(),
  fraud: z.object({ flagThreshold: z.number().int().min(0).max(100) }),
  rewardCodeValidityDays: days(),
  landingUrl: httpUrl(2048).openapi({
    description: "Where the campaign's hosted referral links (`GET /r/{code}`) send visitors, with `ref=<code>` and the link's UTM parameters added",
    example: 'https://shop.example.com/welcome',
  }),
  startsAt: dateTime(STARTS_AT).nullable(),
  endsAt: dateTime(ENDS_AT).nullable(),
  holdDays: z.number().int('must be a whole number').min(0, 'must not be negative').max(MAX_HOLD_DAYS, `must be at most ${MAX_HOLD_DAYS}`),
  recurringMonths: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_RECURRING_MONTHS, `must be at most ${MAX_RECURRING_MONTHS}`)
    .nullable(),
};

/** A schedule bound sent (a date-time) as the service takes it; null and absent are told apart by the caller. */
const scheduleBound = (sent: string | null | undefined) => (sent ? timestampFromDate(new Date(sent)) : undefined);

const CreateCampaignBody = z
  .object({
    name: CampaignFields.name,
    status: CampaignFields.status.default('ACTIVE'),
    referrerReward: CampaignFields.referrerReward,
    refereeReward: CampaignFields.refereeReward.optional(),
    levels: CampaignFields.levels.optional(),
    attributionWindowDays: CampaignFields.attributionWindowDays.optional().openapi({ default: 30 }),
    maxRewardsPerReferrer: CampaignFields.maxRewardsPerReferrer.optional(),
    fraud: CampaignFields.fraud.optional().openapi({ description: 'flagThreshold defaults to 50' }),
    rewardCodeValidityDays: CampaignFields.rewardCodeValidityDays
      .optional()
      .openapi({ default: DEFAULT_CODE_VALIDITY_DAYS, description: 'Days a claimed discount/coupon code stays valid' }),
    landingUrl: CampaignFields.landingUrl.optional(),
    startsAt: CampaignFields.startsAt.optional().openapi({ description: `${STARTS_AT}. null or absent: no start` }),
    endsAt: CampaignFields.endsAt.optional().openapi({ description: `${ENDS_AT}. null or absent: no end` }),
    currency: currencyField(`${CURRENCY}. Default ${DEFAULT_CURRENCY}; fixed once the campaign exists`),
    holdDays: CampaignFields.holdDays.optional().openapi({ description: HOLD_DAYS, default: 0 }),
    recurringMonths: CampaignFields.recurringMonths.optional().openapi({ description: `${RECURRING_MONTHS}. null or absent: only the conversion earns` }),
  })
  .openapi('CreateCampaignRequest');

const UpdateCampaignBody = z
  .object({
    name: CampaignFields.name.optional(),
    status: CampaignFields.status.optional(),
    referrerReward: CampaignFields.referrerReward.optional(),
    refereeReward: CampaignFields.refereeReward.optional().openapi({ description: 'null makes the campaign single-sided' }),
    levels: CampaignFields.levels.optional().openapi({ description: 'Replaces the whole list' }),
    attributionWindowDays: CampaignFields.attributionWindowDays.optional(),
    maxRewardsPerReferrer: CampaignFields.maxRewardsPerReferrer.optional().openapi({ description: 'null removes the cap' }),
    fraud: CampaignFields.fraud.optional(),
    rewardCodeValidityDays: CampaignFields.rewardCodeValidityDays.optional(),
    landingUrl: z
      .union([CampaignFields.landingUrl, z.null()])
      .optional()
      .openapi({ description: 'null removes it (the hosted links then answer 404)' }),
    startsAt: CampaignFields.startsAt.optional().openapi({ description: `${STARTS_AT}. null removes it` }),
    endsAt: CampaignFields.endsAt.optional().openapi({ description: `${ENDS_AT}. null removes it` }),
    currency: currencyField("Fixed at creation: only the campaign's own currency is taken (so a campaign read can be sent back); another is 422 CURRENCY_MISMATCH"),
    holdDays: CampaignFields.holdDays.optional().openapi({ description: `${HOLD_DAYS}. Applies to conversions recorded afterwards` }),
    recurringMonths: CampaignFields.recurringMonths.optional().openapi({ description: `${RECURRING_MONTHS}. null: not recurring` }),
  })
  .openapi('UpdateCampaignRequest');

const CampaignEnvelope = z.object({ campaign: Campaign.schema });
const campaignParams = z.object({ campaignId: id('Campaign id') });

const rule = (r: z.output<typeof RewardRuleInput>) => ({ ...ruleTermsMessage(r), fulfillmentType: FulfillmentTypes.value(r.fulfillmentType) });
const levelRules = (sent: Array<z.output<typeof LevelRewardInput>> | undefined) => (sent ?? []).map((l) => ({ level: l.level, ...ruleTermsMessage(l) }));

export function campaignRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/campaigns',
    tag: 'Campaigns',
    summary: 'Create a campaign',
    description:
      'With `startsAt` and `endsAt` the campaign takes referrals and conversions only in [startsAt, endsAt): `effectiveStatus` says what it does now. ' +
      'An `endsAt` not after `startsAt`, or a bound outside the years 0001 to 9999 (UTC), is 422 INVALID_RANGE.',
    body: CreateCampaignBody,
    responses: {
      201: {
        description: 'Created',
        schema: CampaignEnvelope,
        links: {
          GetCampaign: { method: 'get', path: '/campaigns/:campaignId', parameters: { campaignId: '$response.body#/campaign/id' } },
          UpdateCampaign: { method: 'patch', path: '/campaigns/:campaignId', parameters: { campaignId: '$response.body#/campaign/id' } },
          CreateReferral: { method: 'post', path: '/referrals', requestBody: { campaignId: '$response.body#/campaign/id' } },
          GetCampaignStats: { method: 'get', path: '/stats', parameters: { campaignId: '$response.body#/campaign/id' } },
          GetCampaignTimeseries: { method: 'get', path: '/stats/timeseries', parameters: { campaignId: '$response.body#/campaign/id' } },
          ListCampaignReferrals: { method: 'get', path: '/referrals', parameters: { campaignId: '$response.body#/campaign/id' } },
          ConnectStripe: { method: 'put', path: '/integrations/stripe', requestBody: { campaignId: '$response.body#/campaign/id' } },
        },
      },
    },
    errors: [422],
    handle: async ({ appId, body, operationKey }) => {
      const { campaign } = await clients.referral.createCampaign({
        appId,
        operationKey,
        name: body.name,
        status: CampaignStatuses.value(body.status),
        referrerReward: rule(body.referrerReward),
        refereeReward: body.refereeReward ? rule(body.refereeReward) : undefined,
        levels: levelRules(body.levels),
        attributionWindowDays: body.attributionWindowDays,
        maxRewardsPerReferrer: body.maxRewardsPerReferrer ?? undefined,
        fraud: body.fraud,
        rewardCodeValidityDays: body.rewardCodeValidityDays,
        landingUrl: body.landingUrl,
        startsAt: scheduleBound(body.startsAt),
        endsAt: scheduleBound(body.endsAt),
        currency: body.currency,
        holdDays: body.holdDays,
        recurringMonths: body.recurringMonths ?? undefined,
      });
      return { status: 201, body: { campaign: campaignJson(campaign!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/campaigns',
    tag: 'Campaigns',
    summary: 'List campaigns, newest first',
    description: 'Filters: `status` as set, `effectiveStatus` as it is now; with both, a campaign matches both.',
    query: z.object({ ...pageQuery, ...campaignListFilters }),
    responses: {
      200: { description: 'A page of campaigns', schema: z.object({ campaigns: z.array(Campaign.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listCampaigns({ appId, ...campaignListRequest(query) });
      return {
        status: 200,
        body: {
          campaigns: res.campaigns.map(campaignJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/campaigns/:campaignId',
    tag: 'Campaigns',
    summary: 'Get a campaign',
    params: campaignParams,
    responses: { 200: { description: 'The campaign', schema: CampaignEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { campaign } = await clients.referral.getCampaign({ appId, campaignId: params.campaignId });
      return { status: 200, body: { campaign: campaignJson(campaign!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/campaigns/:campaignId',
    tag: 'Campaigns',
    summary: 'Update a campaign',
    description:
      'Only the fields sent change. Pausing or ending a campaign stops new referrals and conversions (422 CAMPAIGN_INACTIVE), and so does a ' +
      '`startsAt` in the future or an `endsAt` in the past; null removes a bound. An `endsAt` not after `startsAt` (the one sent or the one ' +
      'stored), or a bound outside the years 0001 to 9999 (UTC), is 422 INVALID_RANGE. The currency is fixed at creation: another than the ' +
      "campaign's is 422 CURRENCY_MISMATCH. Changed rules, `holdDays` and `recurringMonths` apply to conversions recorded afterwards.",
    params: campaignParams,
    body: UpdateCampaignBody,
    responses: { 200: { description: 'The updated campaign', schema: CampaignEnvelope } },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const { campaign } = await clients.referral.updateCampaign({
        appId,
        campaignId: params.campaignId,
        name: body.name,
        status: CampaignStatuses.value(body.status),
        referrerReward: body.referrerReward ? rule(body.referrerReward) : undefined,
        refereeReward: body.refereeReward ? rule(body.refereeReward) : undefined,
        clearRefereeReward: body.refereeReward === null,
        levels: levelRules(body.levels),
        replaceLevels: body.levels !== undefined,
        attributionWindowDays: body.attributionWindowDays,
        maxRewardsPerReferrer: body.maxRewardsPerReferrer ?? undefined,
        clearMaxRewardsPerReferrer: body.maxRewardsPerReferrer === null,
        fraud: body.fraud,
        rewardCodeValidityDays: body.rewardCodeValidityDays,
        landingUrl: body.landingUrl ?? undefined,
        clearLandingUrl: body.landingUrl === null,
        startsAt: scheduleBound(body.startsAt),
        clearStartsAt: body.startsAt === null,
        endsAt: scheduleBound(body.endsAt),
        clearEndsAt: body.endsAt === null,
        currency: body.currency,
        holdDays: body.holdDays,
        recurringMonths: body.recurringMonths ?? undefined,
        clearRecurringMonths: body.recurringMonths === null,
      });
      return { status: 200, body: { campaign: campaignJson(campaign!) } };
    },
  });
}
