import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { contextOf } from '../../http/request-context';
import { label } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import type { AppDirectory } from '../../tenancy/app-directory';
import { ConsoleAppSchema, IssuedKeySchema } from '../console-schemas';
import type { AppMembers } from '../members/app-members';

const appLink = { appId: '$response.body#/app/id' };

/** /console/v1/apps: the apps an operator may enter; an instance administrator creates them. */
export function consoleAppRoutes(api: ApiRouter, { directory, members }: { directory: AppDirectory; members: AppMembers }): void {
  api.route({
    method: 'get',
    path: '/apps',
    tag: 'Console',
    summary: 'The apps you may enter',
    description: 'Every app for an instance administrator; else the apps you are a member of, with your role. Oldest first.',
    responses: { 200: { description: 'Apps', schema: z.object({ apps: z.array(ConsoleAppSchema) }).openapi('ConsoleAppList') } },
    handle: async ({ res }) => ({ status: 200, body: { apps: await members.appsOf(contextOf(res).operator!) } }),
  });

  api.route({
    method: 'post',
    path: '/apps',
    tag: 'Console',
    summary: 'Create an app and its first API key',
    description: 'Instance administrators only (403 otherwise). The key is shown only in this answer.',
    body: z.object({ name: label() }).openapi('ConsoleCreateAppRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ app: ConsoleAppSchema, key: IssuedKeySchema }).openapi('ConsoleCreateAppResponse'),
        links: {
          ListMembers: { method: 'get', path: '/apps/:appId/members', parameters: appLink },
          ListKeys: { method: 'get', path: '/apps/:appId/keys', parameters: appLink },
          ListAudit: { method: 'get', path: '/apps/:appId/audit', parameters: appLink },
        },
      },
    },
    handle: async ({ res, body }) => {
      if (!contextOf(res).operator?.isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only an instance administrator creates apps.');
      const { app, key } = await directory.createApp(body.name);
      return {
        status: 201,
        body: {
          app: { id: app._id, name: app.name, role: 'OWNER' },
          key: { id: key.id, apiKey: key.apiKey, prefix: key.prefix, createdAt: key.createdAt.toISOString() },
        },
        audit: { appId: app._id, target: { type: 'app', id: app._id } },
      };
    },
  });
}
