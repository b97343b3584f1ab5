import { FraudFlagSort } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { FraudDecisions, FraudEvidence, FraudFlag, FraudFlagStatuses, fraudEvidenceJson, fraudFlagJson } from '../mappers/fraud-flag.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { freeText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

export function fraudFlagRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/fraud/flags',
    tag: 'Fraud review',
    summary: 'List fraud flags, newest first or riskiest first',
    query: z.object({
      ...pageQuery,
      status: FraudFlagStatuses.schema.optional(),
      campaignId: id('Only this campaign').optional(),
      sort: z.enum(['createdAt', 'riskScore']).optional().openapi({ description: 'createdAt (default): newest first; riskScore: riskiest first, then newest' }),
    }),
    responses: { 200: { description: 'A page of flags', schema: z.object({ flags: z.array(FraudFlag.schema), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listFraudFlags({
        appId,
        page: pageRequest(query),
        status: FraudFlagStatuses.value(query.status),
        campaignId: query.campaignId,
        sort: query.sort === 'riskScore' ? FraudFlagSort.RISK_SCORE : FraudFlagSort.CREATED_AT,
      });
      return {
        status: 200,
        body: {
          flags: res.flags.map(fraudFlagJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/fraud/flags/:flagId',
    tag: 'Fraud review',
    summary: 'Get a fraud flag with the evidence behind it',
    description:
      'The flag, and what the fraud service recorded when it scored the flagged referral or conversion: its signals (IP address, ' +
      'user agent, device, email), for a conversion the click before it, and the other records of the app that share its IP ' +
      'address, device or email. evidence is null when the fraud service does not answer (the flag can still be resolved).',
    params: z.object({ flagId: id('Flag id') }),
    responses: {
      200: {
        description: 'The flag and its evidence',
        schema: z.object({ flag: FraudFlag.schema, evidence: z.union([FraudEvidence.schema, z.null()]) }).openapi('FraudFlagDetail'),
      },
    },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { flag, evidence } = await clients.referral.getFraudFlag({ appId, flagId: params.flagId });
      return { status: 200, body: { flag: fraudFlagJson(flag!), evidence: evidence ? fraudEvidenceJson(evidence) : null } };
    },
  });

  api.route({
    method: 'post',
    path: '/fraud/flags/:flagId/resolve',
    tag: 'Fraud review',
    summary: 'Resolve a fraud flag',
    description:
      "APPROVE a conversion's flag: its records become CONVERTED and its held rewards APPROVED. REJECT: its records become REJECTED " +
      'and its rewards CANCELLED; it then counts in no conversion figure (stats, timeseries, the referrer\'s totals). ' +
      'APPROVE a referral\'s flag clears its isFlagged; REJECT leaves it flagged. ' +
      'A flag is resolved once: again is 409 INVALID_TRANSITION, except a retry with the `Idempotency-Key` of the request that resolved it, ' +
      'which answers the resolved flag. Resolved with a dashboard session, the flag records who decided (`resolvedBy`).',
    params: z.object({ flagId: id('Flag id') }),
    body: z
      .object({ decision: FraudDecisions.schema, note: freeText(2000).optional() })
      .openapi('ResolveFraudFlagRequest'),
    responses: { 200: { description: 'The resolved flag', schema: z.object({ flag: FraudFlag.schema }) } },
    errors: [404, 409],
    handle: async ({ appId, params, body, operationKey, principal }) => {
      const { flag } = await clients.referral.resolveFraudFlag({
        appId,
        operationKey,
        flagId: params.flagId,
        decision: FraudDecisions.value(body.decision),
        note: body.note,
        resolvedBy: principal?.kind === 'operator' ? { operatorId: principal.operatorId, email: principal.email } : undefined,
      });
      return { status: 200, body: { flag: fraudFlagJson(flag!) } };
    },
  });
}
