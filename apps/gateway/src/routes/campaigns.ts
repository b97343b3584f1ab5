import { DEFAULT_CODE_VALIDITY_DAYS } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { Campaign, CampaignStatuses, FulfillmentTypes, LevelReward, RewardRule, campaignJson } from '../mappers/campaign.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { count, days } from '../openapi/number-fields';
import { httpUrl, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const LEVEL_NUMBERS = [2, 3, 4, 5, 6, 7, 8, 9, 10];

const levels = z
  .array(LevelReward.schema)
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

const CampaignFields = {
  name: label(),
  status: CampaignStatuses.schema,
  referrerReward: RewardRule.schema,
  refereeReward: z.union([RewardRule.schema, z.null()]).openapi({ description: 'Set for double-sided campaigns.' }),
  levels,
  attributionWindowDays: days(),
  maxRewardsPerReferrer: count(1).nullable(),
  fraud: z.object({ flagThreshold: z.number().int().min(0).max(100) }),
  rewardCodeValidityDays: days(),
  landingUrl: httpUrl(2048).openapi({
    description: "Where the campaign's hosted referral links (`GET /r/{code}`) send visitors, with `ref=<code>` and the link's UTM parameters added",
    example: 'https://shop.example.com/welcome',
  }),
};

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
  })
  .openapi('UpdateCampaignRequest');

const CampaignEnvelope = z.object({ campaign: Campaign.schema });
const campaignParams = z.object({ campaignId: id('Campaign id') });

const rule = (r: z.output<typeof RewardRule.schema>) => ({
  amount: r.amount,
  fulfillmentType: FulfillmentTypes.value(r.fulfillmentType),
});

export function campaignRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/campaigns',
    tag: 'Campaigns',
    summary: 'Create a campaign',
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
        },
      },
    },
    handle: async ({ appId, body, operationKey }) => {
      const { campaign } = await clients.referral.createCampaign({
        appId,
        operationKey,
        name: body.name,
        status: CampaignStatuses.value(body.status),
        referrerReward: rule(body.referrerReward),
        refereeReward: body.refereeReward ? rule(body.refereeReward) : undefined,
        levels: body.levels ?? [],
        attributionWindowDays: body.attributionWindowDays,
        maxRewardsPerReferrer: body.maxRewardsPerReferrer ?? undefined,
        fraud: body.fraud,
        rewardCodeValidityDays: body.rewardCodeValidityDays,
        landingUrl: body.landingUrl,
      });
      return { status: 201, body: { campaign: campaignJson(campaign!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/campaigns',
    tag: 'Campaigns',
    summary: 'List campaigns, newest first',
    query: z.object({ ...pageQuery, status: CampaignStatuses.schema.optional() }),
    responses: {
      200: { description: 'A page of campaigns', schema: z.object({ campaigns: z.array(Campaign.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listCampaigns({
        appId,
        page: pageRequest(query),
        status: CampaignStatuses.value(query.status),
      });
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
    description: 'Only the fields sent change. Pausing or ending a campaign stops new referrals and conversions (422 CAMPAIGN_INACTIVE).',
    params: campaignParams,
    body: UpdateCampaignBody,
    responses: { 200: { description: 'The updated campaign', schema: CampaignEnvelope } },
    errors: [404],
    handle: async ({ appId, params, body }) => {
      const { campaign } = await clients.referral.updateCampaign({
        appId,
        campaignId: params.campaignId,
        name: body.name,
        status: CampaignStatuses.value(body.status),
        referrerReward: body.referrerReward ? rule(body.referrerReward) : undefined,
        refereeReward: body.refereeReward ? rule(body.refereeReward) : undefined,
        clearRefereeReward: body.refereeReward === null,
        levels: body.levels ?? [],
        replaceLevels: body.levels !== undefined,
        attributionWindowDays: body.attributionWindowDays,
        maxRewardsPerReferrer: body.maxRewardsPerReferrer ?? undefined,
        clearMaxRewardsPerReferrer: body.maxRewardsPerReferrer === null,
        fraud: body.fraud,
        rewardCodeValidityDays: body.rewardCodeValidityDays,
        landingUrl: body.landingUrl ?? undefined,
        clearLandingUrl: body.landingUrl === null,
      });
      return { status: 200, body: { campaign: campaignJson(campaign!) } };
    },
  });
}
