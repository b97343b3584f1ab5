import { IssuedKeySchema as IssuedKey, KeySummarySchema as KeySummary } from '../console/console-schemas';
import { issuedKeyJson, keySummaryJson } from '../console/keys/key-routes';
import type { ApiRouter } from '../http/api-router';
import { ApiError } from '../http/api-error';
import { id, timestamp } from '../openapi/common-schemas';
import { label } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { AppDirectory } from '../tenancy/app-directory';

const App = z.object({ id: z.string(), name: z.string(), createdAt: timestamp }).openapi('App');

const appParams = z.object({ appId: id('App id') });

/** /admin/v1: apps and their API keys, guarded by ADMIN_TOKEN (docs/product-decisions.md §2.3). */
export function adminRoutes(api: ApiRouter, directory: AppDirectory): void {
  const requireApp = async (appId: string) => {
    const app = await directory.getApp(appId);
    if (!app) throw new ApiError(404, 'NOT_FOUND', `App ${appId} not found`);
    return app;
  };

  api.route({
    method: 'post',
    path: '/apps',
    tag: 'Admin',
    summary: 'Create an app and its first API key',
    body: z.object({ name: label() }).openapi('CreateAppRequest'),
    responses: {
      201: {
        description: 'Created',
        schema: z.object({ app: App, apiKey: z.string(), key: IssuedKey }).openapi('CreateAppResponse'),
        links: {
          GetApp: { method: 'get', path: '/apps/:appId', parameters: { appId: '$response.body#/app/id' } },
          ListKeys: { method: 'get', path: '/apps/:appId/keys', parameters: { appId: '$response.body#/app/id' } },
          IssueKey: { method: 'post', path: '/apps/:appId/keys', parameters: { appId: '$response.body#/app/id' } },
        },
      },
    },
    handle: async ({ body }) => {
      const { app, key } = await directory.createApp(body.name);
      return {
        status: 201,
        body: {
          app: { id: app._id, name: app.name, createdAt: app.createdAt.toISOString() },
          apiKey: key.apiKey,
          key: issuedKeyJson(key),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/apps/:appId',
    tag: 'Admin',
    summary: 'Get an app',
    params: appParams,
    responses: { 200: { description: 'The app', schema: z.object({ app: App }) } },
    errors: [404],
    handle: async ({ params }) => {
      const app = await requireApp(params.appId);
      return { status: 200, body: { app: { id: app._id, name: app.name, createdAt: app.createdAt.toISOString() } } };
    },
  });

  api.route({
    method: 'get',
    path: '/apps/:appId/keys',
    tag: 'Admin',
    summary: "List an app's API keys (never the keys themselves)",
    params: appParams,
    responses: { 200: { description: 'Keys', schema: z.object({ keys: z.array(KeySummary) }) } },
    errors: [404],
    handle: async ({ params }) => {
      await requireApp(params.appId);
      const keys = await directory.listKeys(params.appId);
      return {
        status: 200,
        body: { keys: keys.map(keySummaryJson) },
      };
    },
  });

  api.route({
    method: 'post',
    path: '/apps/:appId/keys',
    tag: 'Admin',
    summary: 'Issue another API key (existing keys keep working until revoked)',
    params: appParams,
    responses: {
      201: {
        description: 'Issued',
        schema: z.object({ key: IssuedKey, apiKey: z.string() }),
        links: {
          RevokeKey: { method: 'delete', path: '/apps/:appId/keys/:keyId', parameters: { appId: '$request.path.appId', keyId: '$response.body#/key/id' } },
        },
      },
    },
    errors: [404],
    handle: async ({ params }) => {
      await requireApp(params.appId);
      const key = await directory.issueKey(params.appId);
      return {
        status: 201,
        body: {
          apiKey: key.apiKey,
          key: issuedKeyJson(key),
        },
      };
    },
  });

  api.route({
    method: 'delete',
    path: '/apps/:appId/keys/:keyId',
    tag: 'Admin',
    summary: 'Revoke an API key',
    params: z.object({ appId: id('App id'), keyId: id('Key id') }),
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handle: async ({ params }) => {
      if (!(await directory.revokeKey(params.appId, params.keyId))) {
        throw new ApiError(404, 'NOT_FOUND', `Key ${params.keyId} not found for app ${params.appId}`);
      }
      return { status: 204 };
    },
  });
}
