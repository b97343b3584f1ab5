import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { ActionSchema, ActionType, enumName, enumValue, type Action, type IncentiveService } from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { ActionTypeName } from './action-types';
import type { ActionDoc } from './action.model';
import type { Actions } from './actions';

export const actionType = (t: ActionType) => enumName(ActionType, t) as ActionTypeName | undefined;

export function actionMessage(doc: ActionDoc): Action {
  return create(ActionSchema, {
    key: doc.key,
    name: doc.name,
    type: enumValue(ActionType, doc.type),
    coins: doc.coins,
    xp: doc.xp,
    tokens: doc.tokens,
    cooldownSeconds: doc.cooldownSeconds,
    maxRepeats: doc.maxRepeats ?? undefined,
    enabled: doc.enabled,
    description: doc.description ?? undefined,
    pendingDays: doc.pendingDays ?? 0,
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

type ActionCalls = Pick<ServiceImpl<typeof IncentiveService>, 'createAction' | 'getAction' | 'listActions' | 'updateAction'>;

/** Actions at the edge: requests checked and turned into definitions, actions into messages. */
export function actionCalls(actions: Actions): ActionCalls {
  return {
    async createAction(req, ctx) {
      const type = actionType(req.type);
      if (!type) throw invalidArgument('type is required');
      const action = await actions.create(
        tenantOf(ctx),
        {
          key: req.key,
          name: req.name,
          type,
          coins: req.coins,
          xp: req.xp,
          tokens: req.tokens,
          cooldownSeconds: req.cooldownSeconds,
          maxRepeats: req.maxRepeats ?? null,
          enabled: req.enabled ?? true,
          description: req.description ?? null,
          pendingDays: req.pendingDays,
        },
        req.operationKey,
      );
      return { action: actionMessage(action) };
    },
    async getAction(req, ctx) {
      return { action: actionMessage(await actions.get(tenantOf(ctx), req.key)) };
    },
    async listActions(req, ctx) {
      const page = await actions.list(tenantOf(ctx), pageFromRequest(req.page), { type: actionType(req.type), enabled: req.enabled });
      return { actions: page.items.map(actionMessage), page: pageReply(page) };
    },
    async updateAction(req, ctx) {
      const action = await actions.update(tenantOf(ctx), req.key, {
        name: req.name,
        type: actionType(req.type),
        coins: req.coins,
        xp: req.xp,
        tokens: req.tokens,
        cooldownSeconds: req.cooldownSeconds,
        maxRepeats: req.clearMaxRepeats ? null : req.maxRepeats,
        enabled: req.enabled,
        description: req.description,
        pendingDays: req.pendingDays,
      });
      return { action: actionMessage(action) };
    },
  };
}
