import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ApiRouter } from '../http/api-router';
import { Boost, BoostStates, boostJson } from '../mappers/incentive-boost.mapper';
import { Pagination, dateTime, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { definitionKey, userId } from '../openapi/incentive-schemas';
import { label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

// The service's bounds (apps/incentive-service/src/boosts/boosts.ts), stated in the document.
const MAX_MULTIPLIER = 10;
const MAX_ACTIONS = 100;
const MAX_USERS = 1000;
const MAX_DAYS = 366;
const MAX_OPEN = 100;

/** At most 2 decimal places: 1.15 × 100 is 114.99999999999999 in floating point, so within a tolerance far below a hundredth. */
const hundredths = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;
const distinct = (list: readonly string[]) => new Set(list).size === list.length;

const multiplier = z
  .number()
  .gt(1, 'must be more than 1')
  .max(MAX_MULTIPLIER, `must be at most ${MAX_MULTIPLIER}`)
  .refine(hundredths, 'must have at most 2 decimal places')
  .openapi({
    description:
      'More than 1, at most 10, at most 2 decimal places. Coins and XP an event earns inside the window are multiplied by it and rounded ' +
      'down (7 coins × 1.5 = 10); tokens are not multiplied',
    example: 1.5,
    // The 2-decimal rule as the document states it (checked above with a tolerance: floats).
    multipleOf: 0.01,
  });

const BoostBody = z
  .object({
    name: label(),
    multiplier,
    actionKeys: z
      .array(definitionKey('An action key'))
      .max(MAX_ACTIONS, `must hold at most ${MAX_ACTIONS} keys`)
      .refine(distinct, 'must not hold a key twice')
      .optional()
      .openapi({ description: 'Only events of these actions (each at most once). Empty or absent: every action', uniqueItems: true }),
    userIds: z
      .array(userId('A user of yours'))
      .max(MAX_USERS, `must hold at most ${MAX_USERS} users`)
      .refine(distinct, 'must not hold a user twice')
      .optional()
      .openapi({ description: 'Only events of these users (each at most once). Empty or absent: every user', uniqueItems: true }),
    startsAt: dateTime('Events from then on (inclusive) earn under the boost. It may be past: events already recorded are not rewarded again'),
    endsAt: dateTime(
      `Events from then on (exclusive) earn as usual. After startsAt, in the future, at most ${MAX_DAYS} days after startsAt: 422 INVALID_RANGE otherwise`,
    ),
  })
  .openapi('CreateBoostRequest');

const BoostEnvelope = z.object({ boost: Boost.schema });
const boostParams = z.object({ boostId: id('Boost id') });
const fromBody = { boostId: '$response.body#/boost/id' };

export function incentiveBoostRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/boosts',
    tag: 'Incentive boosts',
    summary: 'Schedule a boost',
    description:
      'Events inside [startsAt, endsAt) of the boost\'s actions and users earn their coins and XP times `multiplier`, rounded down. ' +
      'Boosts do not add up: an event under several earns under the one with the largest multiplier (equal ones: the earliest start, ' +
      'then the smallest id), and its result and its ledger entry name that boost. An `endsAt` not after `startsAt`, not in the ' +
      `future or more than ${MAX_DAYS} days after \`startsAt\` is 422 INVALID_RANGE (\`details.field\`); an app has at most ${MAX_OPEN} ` +
      'boosts that have not ended (422 TOO_MANY_BOOSTS).',
    body: BoostBody,
    responses: {
      201: {
        description: 'Created',
        schema: BoostEnvelope,
        links: {
          GetBoost: { method: 'get', path: '/incentives/boosts/:boostId', parameters: fromBody },
          DeleteBoost: { method: 'delete', path: '/incentives/boosts/:boostId', parameters: fromBody },
        },
      },
    },
    errors: [422],
    handle: async ({ appId, body, operationKey }) => {
      const { boost } = await clients.incentive.createBoost({
        appId,
        operationKey,
        name: body.name,
        multiplier: body.multiplier,
        actionKeys: body.actionKeys ?? [],
        userIds: body.userIds ?? [],
        startsAt: timestampFromDate(new Date(body.startsAt)),
        endsAt: timestampFromDate(new Date(body.endsAt)),
      });
      return { status: 201, body: { boost: boostJson(boost!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/boosts',
    tag: 'Incentive boosts',
    summary: 'List boosts, latest start first',
    query: z.object({
      ...pageQuery,
      state: BoostStates.schema.optional().openapi({ description: 'Only boosts in this state now; absent: all' }),
    }),
    responses: { 200: { description: 'A page of boosts', schema: z.object({ boosts: z.array(Boost.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listBoosts({ appId, page: pageRequest(query), state: BoostStates.value(query.state) });
      return { status: 200, body: { boosts: res.boosts.map(boostJson), pagination: pagination(query, res.page) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/boosts/:boostId',
    tag: 'Incentive boosts',
    summary: 'Get a boost',
    params: boostParams,
    responses: { 200: { description: 'The boost', schema: BoostEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { boost } = await clients.incentive.getBoost({ appId, id: params.boostId });
      return { status: 200, body: { boost: boostJson(boost!) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/incentives/boosts/:boostId',
    tag: 'Incentive boosts',
    summary: 'Cancel a boost before it starts',
    description: 'Only a SCHEDULED boost: once it started, events may have earned under it (422 BOOST_STARTED, `details.startsAt`).',
    params: boostParams,
    responses: { 204: { description: 'Deleted' } },
    errors: [404, 422],
    handle: async ({ appId, params }) => {
      await clients.incentive.deleteBoost({ appId, id: params.boostId });
      return { status: 204 };
    },
  });
}
