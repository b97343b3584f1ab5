import type { ApiRouter } from '../../http/api-router';
import { Pagination, id, pageQuery, pagination, timestamp } from '../../openapi/common-schemas';
import { identifier } from '../../openapi/text-fields';
import { z } from '../../openapi/zod';
import { ROLES, roleAllows } from '../access/principal';
import type { AuditEntryRecord } from './audit-entry.model';
import type { AuditTrail } from './audit-trail';

const Snapshot = z
  .record(z.string(), z.unknown())
  .nullable()
  .openapi({ description: 'The resource as JSON (secrets shown as "[redacted]"); null when there was none.' });

const AuditEntry = z
  .object({
    id: z.string(),
    at: timestamp,
    operator: z.object({ id: z.string(), email: z.string() }),
    action: z.string().openapi({ description: '`<METHOD> <path template>`', example: 'PATCH /api/v1/campaigns/{campaignId}' }),
    summary: z.string().openapi({ description: "The operation's summary", example: 'Update a campaign' }),
    target: z
      .object({ type: z.string(), id: z.string() })
      .nullable()
      .openapi({ description: 'What was changed (from the path, or what the change created).' }),
    before: Snapshot.openapi({ description: "The resource as its own GET answered before the change; null when it has none or did not exist." }),
    after: Snapshot.openapi({ description: 'The answer of the change.' }),
    outcome: z.enum(['SUCCEEDED', 'PENDING', 'UNKNOWN']).openapi({
      description:
        'SUCCEEDED: answered 2xx. PENDING: still running, or the gateway stopped during it. UNKNOWN: it failed in a way that does not ' +
        'tell whether it took effect (5xx). Refused changes (4xx) are not recorded.',
    }),
  })
  .openapi('AuditEntry');

const parsed = (text: string | null) => (text === null ? null : (JSON.parse(text) as Record<string, unknown>));

const entryJson = (e: AuditEntryRecord) => ({
  id: e._id,
  at: e.at.toISOString(),
  operator: { id: e.operatorId, email: e.operatorEmail },
  action: e.action,
  summary: e.summary,
  target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId } : null,
  before: parsed(e.beforeJson),
  after: parsed(e.afterJson),
  outcome: e.outcome,
});

/** /console/v1/apps/{appId}/audit: the changes operators made in the app. */
export function auditRoutes(api: ApiRouter, trail: AuditTrail): void {
  api.route({
    method: 'get',
    path: '/apps/:appId/audit',
    tag: 'Console',
    summary: 'The audit log: changes operators made, newest first',
    description:
      'Every change made with a dashboard session (not with an API key): who, when, what, and the resource before and after. ' +
      'Every role reads it; changes to API keys and members only an OWNER sees.',
    role: 'VIEWER',
    params: z.object({ appId: id('App id') }),
    query: z.object({
      ...pageQuery,
      operatorId: id('Only changes of this operator').optional(),
      action: identifier('Only this action, e.g. `PATCH /api/v1/campaigns/{campaignId}`', 300).optional(),
    }),
    responses: {
      200: { description: 'A page of entries', schema: z.object({ entries: z.array(AuditEntry), pagination: Pagination }).openapi('AuditLogPage') },
    },
    handle: async ({ appId, query, principal }) => {
      const role = principal?.kind === 'operator' ? principal.role : 'VIEWER';
      const page = await trail.list(appId, { ...query, readRoles: ROLES.filter((r) => roleAllows(role, r)) });
      return { status: 200, body: { entries: page.items.map(entryJson), pagination: pagination(query, page) } };
    },
  });
}
