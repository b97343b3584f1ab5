import type { ApiRouter } from '../../http/api-router';
import { ApiError } from '../../http/api-error';
import { id } from '../../openapi/common-schemas';
import { label } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import type { ApiKeyRecord } from '../../tenancy/api-key.model';
import type { AppDirectory, IssuedKey } from '../../tenancy/app-directory';
import { IssuedKeySchema, KeySummarySchema } from '../console-schemas';

const appParams = z.object({ appId: id('App id') });
const keyParams = z.object({ appId: id('App id'), keyId: id('Key id') });
const keyLink = { appId: '$request.path.appId', keyId: '$response.body#/key/id' };

/** A key just issued: the only answer that shows the key itself. */
export const issuedKeyJson = (key: IssuedKey) => ({ id: key.id, apiKey: key.apiKey, name: key.name, prefix: key.prefix, createdAt: key.createdAt.toISOString() });

export const keySummaryJson = (k: ApiKeyRecord) => ({
  id: k._id,
  name: k.name ?? null,
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt ? k.revokedAt.toISOString() : null,
  lastUsedAt: k.lastUsedAt ? k.lastUsedAt.toISOString() : null,
});

/** /console/v1/apps/{appId}/keys: an app's API keys (OWNER only), as the admin API manages them. */
export function keyRoutes(api: ApiRouter, directory: AppDirectory): void {
  api.route({
    method: 'get',
    path: '/apps/:appId/keys',
    tag: 'Console',
    summary: "List the app's API keys (never the keys themselves)",
    role: 'OWNER',
    params: appParams,
    responses: { 200: { description: 'Keys, newest first', schema: z.object({ keys: z.array(KeySummarySchema) }).openapi('ApiKeyList') } },
    handle: async ({ appId }) => ({ status: 200, body: { keys: (await directory.listKeys(appId)).map(keySummaryJson) } }),
  });

  api.route({
    method: 'post',
    path: '/apps/:appId/keys',
    tag: 'Console',
    summary: 'Issue an API key',
    description:
      'The full key is shown only in this answer (the audit log keeps it redacted). Existing keys keep working until revoked. ' +
      'The body is optional: `name` says what the key is for (up to 100 characters), shown in the list; without it the key is unnamed.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: appParams,
    body: z.object({ name: label(100).optional() }).openapi('IssueApiKeyRequest').optional(),
    responses: {
      201: {
        description: 'Issued',
        schema: z.object({ key: IssuedKeySchema }).openapi('IssueApiKeyResponse'),
        links: {
          ListKeys: { method: 'get', path: '/apps/:appId/keys', parameters: { appId: '$request.path.appId' } },
          RevokeKey: { method: 'delete', path: '/apps/:appId/keys/:keyId', parameters: keyLink },
        },
      },
    },
    handle: async ({ appId, body }) => {
      const key = await directory.issueKey(appId, body?.name ?? null);
      return { status: 201, body: { key: issuedKeyJson(key) } };
    },
  });

  api.route({
    method: 'delete',
    path: '/apps/:appId/keys/:keyId',
    tag: 'Console',
    summary: 'Revoke an API key',
    description: 'It stops working at once on this gateway replica, within 5 s on the others. A revoked key stays in the list, with revokedAt.',
    role: 'OWNER',
    auditReadRole: 'OWNER',
    params: keyParams,
    responses: { 204: { description: 'Revoked' } },
    errors: [404],
    handle: async ({ appId, params }) => {
      if (!(await directory.revokeKey(appId, params.keyId))) throw new ApiError(404, 'NOT_FOUND', `Key ${params.keyId} not found for this app`);
      return { status: 204 };
    },
  });
}
