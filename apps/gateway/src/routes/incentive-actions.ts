import type { ApiRouter } from '../http/api-router';
import { Action, ActionTypes, actionJson } from '../mappers/incentive-action.mapper';
import { Pagination, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { amount, definitionKey, xpAmount } from '../openapi/incentive-schemas';
import { booleanFromQuery } from '../openapi/query-values';
import { count } from '../openapi/number-fields';
import { freeText, label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const cooldown = count();
const maxRepeats = count();
const pendingDays = z
  .number()
  .int()
  .min(0)
  .max(365)
  .openapi({ description: 'Days its coins and tokens stay pending (not spendable, not on the board) before they become available by themselves, unless the event is reversed first; 0 = at once' });

const ActionEnvelope = z.object({ action: Action.schema });

const CreateActionBody = z
  .object({
    key: definitionKey('Unique per app; events name the action by it'),
    name: label(),
    type: ActionTypes.schema.openapi({
      description: 'STANDARD actions are posted with POST /incentives/events; the REFERRAL_* types fire by themselves from referral activity',
    }),
    coins: amount.default(0),
    xp: xpAmount.default(0),
    tokens: amount.default(0),
    cooldown: cooldown.default(0).openapi({ description: 'Seconds; 0 = none' }),
    maxRepeats: maxRepeats.nullable().optional().openapi({ description: 'Max rewarded events per user; omitted or null = unlimited' }),
    enabled: z.boolean().default(true),
    description: freeText(1000).optional(),
    pendingDays: pendingDays.default(0),
  })
  .openapi('CreateIncentiveActionRequest');

const UpdateActionBody = z
  .object({
    name: CreateActionBody.shape.name.optional(),
    type: ActionTypes.schema.optional(),
    coins: amount.optional(),
    xp: xpAmount.optional(),
    tokens: amount.optional(),
    cooldown: cooldown.optional(),
    maxRepeats: maxRepeats.nullable().optional().openapi({ description: 'null removes the cap' }),
    enabled: z.boolean().optional().openapi({ description: 'A disabled action records events but rewards nothing (reason ACTION_DISABLED)' }),
    description: freeText(1000).optional(),
    pendingDays: pendingDays.optional().openapi({ description: 'Applies to events from then on' }),
  })
  .openapi('UpdateIncentiveActionRequest');

const keyParams = z.object({ key: definitionKey('Action key') });

/** An action's fields as the service takes them, from a create or an update body (absent: unchanged). */
const actionFields = (body: z.output<typeof UpdateActionBody>) => ({
  name: body.name,
  type: ActionTypes.value(body.type),
  coins: body.coins,
  xp: body.xp,
  tokens: body.tokens,
  cooldownSeconds: body.cooldown,
  maxRepeats: body.maxRepeats ?? undefined,
  enabled: body.enabled,
  description: body.description,
  pendingDays: body.pendingDays,
});

export function incentiveActionRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/incentives/actions',
    tag: 'Incentive actions',
    summary: 'Define an action users earn coins, XP and tokens for',
    body: CreateActionBody,
    responses: {
      201: {
        description: 'Created',
        schema: ActionEnvelope,
        links: {
          GetAction: { method: 'get', path: '/incentives/actions/:key', parameters: { key: '$response.body#/action/key' } },
          UpdateAction: { method: 'patch', path: '/incentives/actions/:key', parameters: { key: '$response.body#/action/key' } },
          RecordEvent: { method: 'post', path: '/incentives/events', requestBody: { actionKey: '$response.body#/action/key' } },
        },
      },
    },
    errors: [409],
    handle: async ({ appId, body, operationKey }) => {
      const { action } = await clients.incentive.createAction({
        appId,
        operationKey,
        key: body.key,
        ...actionFields(body),
      });
      return { status: 201, body: { action: actionJson(action!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/actions',
    tag: 'Incentive actions',
    summary: 'List actions, by key',
    query: z.object({ ...pageQuery, type: ActionTypes.schema.optional(), enabled: booleanFromQuery() }),
    responses: { 200: { description: 'A page of actions', schema: z.object({ actions: z.array(Action.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.incentive.listActions({
        appId,
        page: pageRequest(query),
        type: ActionTypes.value(query.type),
        enabled: query.enabled,
      });
      return {
        status: 200,
        body: { actions: res.actions.map(actionJson), pagination: pagination(query, res.page) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/incentives/actions/:key',
    tag: 'Incentive actions',
    summary: 'Get an action',
    params: keyParams,
    responses: { 200: { description: 'The action', schema: ActionEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { action } = await clients.incentive.getAction({ appId, key: params.key });
      return { status: 200, body: { action: actionJson(action!) } };
    },
  });

  api.route({
    method: 'patch',
    path: '/incentives/actions/:key',
    tag: 'Incentive actions',
    summary: 'Update an action',
    description: 'Only the fields sent change; the key never does. Changes apply to events recorded afterwards.',
    params: keyParams,
    body: UpdateActionBody,
    responses: { 200: { description: 'The updated action', schema: ActionEnvelope } },
    errors: [404],
    handle: async ({ appId, params, body }) => {
      const { action } = await clients.incentive.updateAction({
        appId,
        key: params.key,
        ...actionFields(body),
        clearMaxRepeats: body.maxRepeats === null,
      });
      return { status: 200, body: { action: actionJson(action!) } };
    },
  });
}
