import type { Request, Response } from 'express';
import { ApiError } from '../../http/api-error';
import { contextOf } from '../../http/request-context';
import type { AppMembers } from '../members/app-members';
import type { Principal } from './principal';

/**
 * The console's caller on a route about one app (`/apps/{appId}/…`): the
 * signed-in operator with their role in the path's app; 403 when they may
 * not enter it (also when it does not exist: a non-member learns nothing).
 */
export function consolePrincipal(members: AppMembers) {
  return (_req: Request, res: Response, params: unknown): Promise<Principal> | undefined => {
    const appId = (params as { appId?: unknown } | undefined)?.appId;
    const operator = contextOf(res).operator;
    if (typeof appId !== 'string' || !operator) return undefined;
    return members.roleOf(operator, appId).then((role) => {
      if (!role) throw new ApiError(403, 'FORBIDDEN', `You are not a member of app ${appId}.`);
      return { kind: 'operator', appId, role, ...operator };
    });
  };
}
