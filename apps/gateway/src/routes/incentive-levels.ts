import type { ApiRouter } from '../http/api-router';
import { Level, levelJson } from '../mappers/incentive-balance.mapper';
import { Pagination, pageQuery, pagination } from '../openapi/common-schemas';
import { amount, definitionKey, xpAmount } from '../openapi/incentive-schemas';
import { integerText } from '../openapi/query-values';
import { label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const MAX_LEVEL = 10_000;
const levelNumber = z.number().int('must be a whole number').min(1).max(MAX_LEVEL);

const Rewards = z
  .object({
    coins: amount.default(0),
    badgeKey: definitionKey('A badge to award (it must exist: 422 BADGE_NOT_FOUND otherwise)').nullable().optional(),
    perks: z.array(label(100)).max(50).default([]).openapi({ description: 'Free-form perk names' }),
  })
  .openapi('LevelRewardsRequest');

const params = z.object({ level: integerText('level', 1, MAX_LEVEL).openapi({ description: 'Level number' }) });

const toRewards = (r: z.output<typeof Rewards> | undefined) => ({ coins: r?.coins ?? 0, badgeKey: r?.badgeKey ?? undefined, perks: r?.perks ?? [] });

export function incentiveLevelRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/incentives/levels',
    tag: 'Incentive levels',
    summary: 'The level ladder, lowest first',
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of levels', schema: z.object({ levels: z.array(Level.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      // A ladder is small and read whole by the service; it is paged here like every list.
      const { levels } = await clients.incentive.listLevels({ appId });
      const start = (query.page - 1) * query.limit;
      return {
        status: 200,
        body: { levels: levels.slice(start, start + query.limit).map(levelJson), pagination: pagination(query, { totalItems: levels.length }) },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/incentives/levels',
    tag: 'Incentive levels',
    summary: 'Add a level',
    description:
      'xpThreshold must rise with the level number across the stored ladder (422 LADDER_ORDER otherwise). Reaching a level grants its coins, badge and perks once; ' +
      'crossing several levels at once grants each of them.',
    body: z
      .object({ level: levelNumber, name: label(), xpThreshold: xpAmount, rewards: Rewards.optional() })
      .openapi('CreateIncentiveLevelRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ level: Level.schema }),
        links: {
          UpdateLevel: { method: 'patch', path: '/incentives/levels/:level', parameters: { level: '$response.body#/level/level' } },
          DeleteLevel: { method: 'delete', path: '/incentives/levels/:level', parameters: { level: '$response.body#/level/level' } },
        },
      },
    },
    errors: [409, 422],
    handle: async ({ appId, body, operationKey }) => {
      const { level } = await clients.incentive.createLevel({
        appId,
        operationKey,
        level: { level: body.level, name: body.name, xpThreshold: body.xpThreshold, rewards: toRewards(body.rewards) },
      });
      return { status: 201, body: { level: levelJson(level!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/levels/:level',
    tag: 'Incentive levels',
    summary: 'Update a level',
    description: 'Only the fields sent change; rewards, when sent, replace the old ones. Thresholds must still rise with the level.',
    params,
    body: z
      .object({ name: label().optional(), xpThreshold: xpAmount.optional(), rewards: Rewards.optional() })
      .openapi('UpdateIncentiveLevelRequest'),
    responses: { 200: { description: 'The updated level', schema: z.object({ level: Level.schema }) } },
    errors: [404, 422],
    handle: async ({ appId, params: p, body }) => {
      const { level } = await clients.incentive.updateLevel({
        appId,
        level: p.level,
        name: body.name,
        xpThreshold: body.xpThreshold,
        rewards: body.rewards ? toRewards(body.rewards) : undefined,
      });
      return { status: 200, body: { level: levelJson(level!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/levels/:level',
    tag: 'Incentive levels',
    summary: 'Remove a level',
    description: 'Users who reached it keep what it gave them.',
    params,
    responses: { 204: { description: 'Removed' } },
    errors: [404],
    handle: async ({ appId, params: p }) => {
      await clients.incentive.deleteLevel({ appId, level: p.level });
      return { status: 204 };
    },
  });
}
