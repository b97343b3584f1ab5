import { FraudDecision, FraudFlagStatus, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { fraudFlagJson } from '../mappers/fraud-flag.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { freeText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const FLAG_STATUSES = ['OPEN', 'APPROVED', 'REJECTED'] as const;

const FraudFlagResolver = z.object({ operatorId: z.string(), email: z.string() }).openapi('FraudFlagResolver');

const FraudFlag = z
  .object({
    id: z.string(),
    type: z.enum(['REFERRAL', 'CONVERSION']),
    status: z.enum(FLAG_STATUSES),
    campaignId: z.string(),
    referralId: z.string(),
    referralCode: z.string(),
    conversionId: z.string().nullable(),
    referrerId: z.string(),
    refereeId: z.string().nullable(),
    riskScore: z.number().int(),
    reasons: z.array(z.string()),
    warning: z.string(),
    note: z.string().nullable(),
    createdAt: timestamp,
    resolvedAt: timestamp.nullable(),
    resolvedBy: FraudFlagResolver.nullable().openapi({
      description: 'The dashboard operator who resolved the flag; null while open, or when an API key resolved it.',
    }),
  })
  .openapi('FraudFlag');

export function fraudFlagRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/fraud/flags',
    tag: 'Fraud review',
    summary: 'List fraud flags, newest first',
    query: z.object({ ...pageQuery, status: z.enum(FLAG_STATUSES).optional() }),
    responses: { 200: { description: 'A page of flags', schema: z.object({ flags: z.array(FraudFlag), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listFraudFlags({
        appId,
        page: pageRequest(query),
        status: enumValue(FraudFlagStatus, query.status),
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
    method: 'post',
    path: '/fraud/flags/:flagId/resolve',
    tag: 'Fraud review',
    summary: 'Resolve a fraud flag',
    description:
      "APPROVE a conversion's flag: its records become CONVERTED and its held rewards APPROVED. REJECT: its rewards are CANCELLED " +
      '(the records stay FLAGGED). APPROVE a referral\'s flag clears its isFlagged; REJECT leaves it flagged. ' +
      'A flag is resolved once: again is 409 INVALID_TRANSITION, except a retry with the `Idempotency-Key` of the request that resolved it, ' +
      'which answers the resolved flag. Resolved with a dashboard session, the flag records who decided (`resolvedBy`).',
    params: z.object({ flagId: id('Flag id') }),
    body: z
      .object({ decision: z.enum(['APPROVE', 'REJECT']), note: freeText(2000).optional() })
      .openapi('ResolveFraudFlagRequest'),
    responses: { 200: { description: 'The resolved flag', schema: z.object({ flag: FraudFlag }) } },
    errors: [404, 409],
    handle: async ({ appId, params, body, operationKey, principal }) => {
      const { flag } = await clients.referral.resolveFraudFlag({
        appId,
        operationKey,
        flagId: params.flagId,
        decision: enumValue(FraudDecision, body.decision),
        note: body.note,
        resolvedBy: principal?.kind === 'operator' ? { operatorId: principal.operatorId, email: principal.email } : undefined,
      });
      return { status: 200, body: { flag: fraudFlagJson(flag!) } };
    },
  });
}
