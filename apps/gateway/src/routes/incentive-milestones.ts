import type { ApiRouter } from '../http/api-router';
import { Milestone, ReachedMilestone, milestoneJson, reachedMilestoneJson } from '../mappers/incentive-achievement.mapper';
import { MilestoneMetrics } from '../mappers/incentive-action.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { amount, definitionKey, userId, xpAmount } from '../openapi/incentive-schemas';
import { freeText, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const Rewards = z
  .object({
    coins: amount.default(0),
    xp: xpAmount.default(0),
    tokens: amount.default(0),
    badgeKey: definitionKey('A badge to award (it must exist: 422 BADGE_NOT_FOUND otherwise)').nullable().optional(),
  })
  .openapi('MilestoneRewardsRequest');

const threshold = amount.min(1, 'must be at least 1');
const keyParams = z.object({ key: definitionKey('Milestone key') });
const metricText =
  'XP: the user\'s XP; COINS_EARNED: coins earned from rewards; EVENTS: rewarded events; REFERRALS: referees who converted; ' +
  'STREAK: the longest streak of `streakKey` the user had';

const toRewards = (r: z.output<typeof Rewards> | undefined) => ({
  coins: r?.coins ?? 0,
  xp: r?.xp ?? 0,
  tokens: r?.tokens ?? 0,
  badgeKey: r?.badgeKey ?? undefined,
});

export function incentiveMilestoneRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/milestones/definitions',
    tag: 'Incentive milestones',
    summary: 'Define a milestone',
    description: `Reached once per user when the metric gets to the threshold; its rewards are granted then. ${metricText}.`,
    body: z
      .object({
        key: definitionKey('Unique per app'),
        name: label(),
        description: freeText(1000).optional(),
        metric: MilestoneMetrics.schema,
        threshold,
        rewards: Rewards.optional(),
        streakKey: definitionKey('The streak of metric STREAK (422 STREAK_KEY_REQUIRED without one); ignored with any other metric').optional(),
      })
      .openapi('CreateMilestoneRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ milestone: Milestone.schema }),
        links: {
          GetMilestone: { method: 'get', path: '/incentives/milestones/definitions/:key', parameters: { key: '$response.body#/milestone/key' } },
          UpdateMilestone: { method: 'patch', path: '/incentives/milestones/definitions/:key', parameters: { key: '$response.body#/milestone/key' } },
          DeleteMilestone: { method: 'delete', path: '/incentives/milestones/definitions/:key', parameters: { key: '$response.body#/milestone/key' } },
        },
      },
    },
    errors: [409, 422],
    handle: async ({ appId, body, operationKey }) => {
      const { milestone } = await clients.incentive.createMilestone({
        appId,
        operationKey,
        key: body.key,
        name: body.name,
        description: body.description,
        metric: MilestoneMetrics.value(body.metric),
        threshold: body.threshold,
        rewards: toRewards(body.rewards),
        streakKey: body.streakKey,
      });
      return { status: 201, body: { milestone: milestoneJson(milestone!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/milestones/definitions',
    tag: 'Incentive milestones',
    summary: 'List milestone definitions, by key',
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of definitions', schema: z.object({ milestones: z.array(Milestone.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listMilestones({ appId, page: pageRequest(query) });
      return {
        status: 200,
        body: { milestones: res.milestones.map(milestoneJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/milestones/definitions/:key',
    tag: 'Incentive milestones',
    summary: 'Get a milestone definition',
    params: keyParams,
    responses: { 200: { description: 'The definition', schema: z.object({ milestone: Milestone.schema }) } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { milestone } = await clients.incentive.getMilestone({ appId, key: params.key });
      return { status: 200, body: { milestone: milestoneJson(milestone!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/milestones/definitions/:key',
    tag: 'Incentive milestones',
    summary: 'Update a milestone definition',
    description: 'Only the fields sent change; rewards, when sent, replace the old ones. Users who reached it keep it.',
    params: keyParams,
    body: z
      .object({
        name: label().optional(),
        description: freeText(1000).optional(),
        metric: MilestoneMetrics.schema.optional(),
        threshold: threshold.optional(),
        rewards: Rewards.optional(),
        streakKey: definitionKey('The streak of metric STREAK; ignored with any other metric').optional(),
      })
      .openapi('UpdateMilestoneRequest'),
    responses: { 200: { description: 'The updated definition', schema: z.object({ milestone: Milestone.schema }) } },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const { milestone } = await clients.incentive.updateMilestone({
        appId,
        key: params.key,
        name: body.name,
        description: body.description,
        metric: MilestoneMetrics.value(body.metric),
        threshold: body.threshold,
        rewards: body.rewards ? toRewards(body.rewards) : undefined,
        streakKey: body.streakKey,
      });
      return { status: 200, body: { milestone: milestoneJson(milestone!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/milestones/definitions/:key',
    tag: 'Incentive milestones',
    summary: 'Remove a milestone definition',
    description: 'Users who reached it keep it and what it gave them.',
    params: keyParams,
    responses: { 204: { description: 'Removed' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      await clients.incentive.deleteMilestone({ appId, key: params.key });
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/milestones',
    tag: 'Incentive milestones',
    summary: 'Milestones reached by users, newest first',
    description: 'All of the app, or filtered: `userId` (what a user reached), `key` (who reached a milestone), or both.',
    query: z.object({ ...pageQuery, userId: userId('Only this user').optional(), key: definitionKey('Only this milestone: who reached it').optional() }),
    responses: {
      200: { description: 'A page of reached milestones', schema: z.object({ milestones: z.array(ReachedMilestone.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listReachedMilestones({ appId, userId: query.userId, key: query.key, page: pageRequest(query) });
      return {
        status: 200,
        body: { milestones: res.milestones.map(reachedMilestoneJson), pagination: pagination(query, res.page) },
      };
    },
  });
}
