import { StreakPeriod } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { StreakDefinition, StreakPeriods, UserSettings, UserStreak, streakDefinitionJson, userSettingsJson, userStreakJson } from '../mappers/incentive-streak.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { amount, definitionKey, timeZone, userId, xpAmount } from '../openapi/incentive-schemas';
import { label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const Reward = z
  .object({
    length: z.number().int().min(1).max(3650).openapi({ description: 'The streak length that pays it (1 to 3650)' }),
    coins: amount.default(0),
    xp: xpAmount.default(0),
    tokens: amount.default(0),
    badgeKey: definitionKey('A badge to award (it must exist: 422 BADGE_NOT_FOUND otherwise)').nullable().optional(),
  })
  .openapi('StreakRewardRequest');

const actionKeys = z
  .array(definitionKey('An action (it must exist: 422 ACTION_NOT_FOUND otherwise)'))
  .max(50)
  .openapi({ description: 'Actions whose events extend it; empty or absent: any action', uniqueItems: true });
const freezesPerMonth = z.number().int().min(0).max(10).openapi({ description: 'Missed periods a user may have saved per calendar month (0 to 10)' });
const rewards = z.array(Reward).max(50).openapi({ description: 'One per length; each is paid once per streak that reaches it' });
const keyParams = z.object({ key: definitionKey('Streak key') });
const userParams = z.object({ userId: userId() });

const toRewards = (list: Array<z.output<typeof Reward>> | undefined) =>
  (list ?? []).map((r) => ({ length: r.length, coins: r.coins, xp: r.xp, tokens: r.tokens, badgeKey: r.badgeKey ?? undefined }));

const periodText =
  "DAILY counts calendar days, WEEKLY ISO weeks (Monday to Sunday), in the user's time zone (the event's `timeZone`, else " +
  'PUT /incentives/users/{userId}/settings, else UTC). The first qualifying event of a period extends the streak; a period missed ' +
  'uses a freeze if one is left that month, else the streak ends (the next event starts a new one).';

export function incentiveStreakRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/streaks/definitions',
    tag: 'Incentive streaks',
    summary: 'Define a streak',
    description: `${periodText} Rewards are paid once per streak that reaches their length.`,
    body: z
      .object({
        key: definitionKey('Unique per app'),
        name: label(),
        period: StreakPeriods.schema,
        actionKeys: actionKeys.optional(),
        freezesPerMonth: freezesPerMonth.optional(),
        rewards: rewards.optional(),
      })
      .openapi('CreateStreakDefinitionRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ streak: StreakDefinition.schema }),
        links: {
          GetStreakDefinition: { method: 'get', path: '/incentives/streaks/definitions/:key', parameters: { key: '$response.body#/streak/key' } },
          UpdateStreakDefinition: { method: 'patch', path: '/incentives/streaks/definitions/:key', parameters: { key: '$response.body#/streak/key' } },
          DeleteStreakDefinition: { method: 'delete', path: '/incentives/streaks/definitions/:key', parameters: { key: '$response.body#/streak/key' } },
        },
      },
    },
    errors: [409, 422],
    handle: async ({ appId, body, operationKey }) => {
      const { streak } = await clients.incentive.createStreakDefinition({
        appId,
        operationKey,
        key: body.key,
        name: body.name,
        period: StreakPeriods.value(body.period) ?? StreakPeriod.UNSPECIFIED,
        actionKeys: body.actionKeys ?? [],
        freezesPerMonth: body.freezesPerMonth ?? 0,
        rewards: toRewards(body.rewards),
      });
      return { status: 201, body: { streak: streakDefinitionJson(streak!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/streaks/definitions',
    tag: 'Incentive streaks',
    summary: 'List streak definitions, by key',
    query: z.object(pageQuery),
    responses: { 200: { description: 'A page of definitions', schema: z.object({ streaks: z.array(StreakDefinition.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listStreakDefinitions({ appId, page: pageRequest(query) });
      return { status: 200, body: { streaks: res.streaks.map(streakDefinitionJson), pagination: pagination(query, res.page) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/streaks/definitions/:key',
    tag: 'Incentive streaks',
    summary: 'Get a streak definition',
    params: keyParams,
    responses: { 200: { description: 'The definition', schema: z.object({ streak: StreakDefinition.schema }) } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { streak } = await clients.incentive.getStreakDefinition({ appId, key: params.key });
      return { status: 200, body: { streak: streakDefinitionJson(streak!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/streaks/definitions/:key',
    tag: 'Incentive streaks',
    summary: 'Update a streak definition',
    description: 'Only the fields sent change; actionKeys and rewards, when sent, replace the old ones. The period cannot change (users\u2019 progress is counted in it).',
    params: keyParams,
    body: z
      .object({ name: label().optional(), actionKeys: actionKeys.optional(), freezesPerMonth: freezesPerMonth.optional(), rewards: rewards.optional() })
      .openapi('UpdateStreakDefinitionRequest'),
    responses: { 200: { description: 'The updated definition', schema: z.object({ streak: StreakDefinition.schema }) } },
    errors: [404, 422],
    handle: async ({ appId, params, body }) => {
      const { streak } = await clients.incentive.updateStreakDefinition({
        appId,
        key: params.key,
        name: body.name,
        setActionKeys: body.actionKeys !== undefined,
        actionKeys: body.actionKeys ?? [],
        freezesPerMonth: body.freezesPerMonth,
        setRewards: body.rewards !== undefined,
        rewards: toRewards(body.rewards),
      });
      return { status: 200, body: { streak: streakDefinitionJson(streak!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/streaks/definitions/:key',
    tag: 'Incentive streaks',
    summary: 'Remove a streak definition',
    description: 'Users\u2019 streaks of it stop being kept; what its rewards paid stays.',
    params: keyParams,
    responses: { 204: { description: 'Removed' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      await clients.incentive.deleteStreakDefinition({ appId, key: params.key });
      return { status: 204 };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/streaks/:userId',
    tag: 'Incentive streaks',
    summary: "A user's streaks, as of now",
    description: 'Every streak definition of the app with the user\u2019s progress (length 0 where none runs; never 404).',
    params: userParams,
    responses: { 200: { description: 'The user\u2019s streaks, by key', schema: z.object({ userId: z.string(), streaks: z.array(UserStreak.schema) }) } },
    handle: async ({ appId, params }) => {
      const res = await clients.incentive.getUserStreaks({ appId, userId: params.userId });
      return { status: 200, body: { userId: params.userId, streaks: res.streaks.map(userStreakJson) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/users/:userId/settings',
    tag: 'Incentive streaks',
    summary: "A user's settings (time zone)",
    params: userParams,
    responses: { 200: { description: 'The settings (UTC until set)', schema: z.object({ settings: UserSettings.schema }) } },
    handle: async ({ appId, params }) => {
      const { settings } = await clients.incentive.getUserSettings({ appId, userId: params.userId });
      return { status: 200, body: { settings: userSettingsJson(settings!) } };
    },
  });

  api.route({
    method: 'put',
    path: '/incentives/users/:userId/settings',
    tag: 'Incentive streaks',
    summary: "Set a user's time zone",
    description: 'Streaks count the user\u2019s next periods in it (an event that names its own `timeZone` is counted in that one). 422 TIME_ZONE_UNKNOWN for a name that is not an IANA zone.',
    params: userParams,
    body: z.object({ timeZone: timeZone('The user\u2019s zone') }).openapi('PutIncentiveUserSettingsRequest'),
    responses: { 200: { description: 'The settings', schema: z.object({ settings: UserSettings.schema }) } },
    errors: [422],
    handle: async ({ appId, params, body }) => {
      const { settings } = await clients.incentive.putUserSettings({ appId, userId: params.userId, timeZone: body.timeZone });
      return { status: 200, body: { settings: userSettingsJson(settings!) } };
    },
  });
}
