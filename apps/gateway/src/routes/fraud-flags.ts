import { FraudDecision, FraudFlagSort, FraudFlagStatus, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { fraudEvidenceJson, fraudFlagJson } from '../mappers/fraud-flag.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { freeText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const FLAG_STATUSES = ['OPEN', 'APPROVED', 'REJECTED'] as const;

const FraudFlagResolver = z.object({ operatorId: z.string(), email: z.string() }).openapi('FraudFlagResolver');
/**
 * What each reason code means, in words a reviewer reads (the codes are
 * stable; the fraud service's rules raise them; the limits are its settings).
 */
export const REASON_SENTENCES: Record<string, string> = {
  SELF_REFERRAL: 'The referee is the referrer: the same user id, or (on a conversion) the same email address.',
  EMAIL_ALIAS: "The referee's email address is an alias of the referrer's: the same once dots and +tags are removed.",
  SAME_DEVICE: "The referee converted from the referrer's device.",
  SAME_IP: "The referee converted from the referrer's IP address (weak alone: offices and carriers share addresses).",
  IP_VELOCITY: 'Unusually many referrals or conversions came from this IP address within the velocity window (by default more than 5 in 60 minutes).',
  DEVICE_VELOCITY: 'Unusually many referrals or conversions came from this device within the velocity window (by default more than 3 in 60 minutes).',
  REFERRER_VELOCITY: 'The referrer collected conversions faster than people do (by default more than 10 in 60 minutes).',
  FAST_CONVERSION: 'The referee converted within seconds of clicking the link (by default under 10 s), as scripted sign-ups do.',
  DISPOSABLE_EMAIL: 'The email address is at a disposable (throw-away) mail domain.',
  MULTIPLE_CODES: "The referee already converted through another code, or used several other referrers' codes recently.",
};

const reasonsDescription =
  'Stable reason codes, strongest first. What each means: ' +
  Object.entries(REASON_SENTENCES)
    .map(([code, sentence]) => `${code}: ${sentence}`)
    .join(' ');

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
    riskScore: z.number().int().openapi({ description: '0..100: the weights of the rules that fired, summed and capped' }),
    reasons: z.array(z.string()).openapi({ description: reasonsDescription }),
    warning: z.string().openapi({ description: 'One human sentence naming what each rule found' }),
    note: z.string().nullable(),
    createdAt: timestamp,
    resolvedAt: timestamp.nullable(),
    resolvedBy: FraudFlagResolver.nullable().openapi({
      description: 'The dashboard operator who resolved the flag; null while open, or when an API key resolved it.',
    }),
  })
  .openapi('FraudFlag');

const SIGNAL_FIELDS = ['ip', 'deviceId', 'email'] as const;

const FraudEvidence = z
  .object({
    signals: z
      .union([
        z
          .object({
            ip: z.string().nullable(),
            userAgent: z.string().nullable(),
            deviceId: z.string().nullable(),
            email: z.string().nullable(),
            at: timestamp.openapi({ description: 'When the referral was created or the conversion happened' }),
          })
          .openapi('FraudSignals'),
        z.null(),
      ])
      .openapi({
        description:
          "The flagged referral's referrer or the converting referee, as the request's context described them when scored; null when the fraud service kept no signal of it",
      }),
    click: z
      .union([
        z
          .object({
            clickId: z.string(),
            clickedAt: timestamp,
            secondsToConversion: z.number().openapi({ description: 'From this click to the conversion' }),
          })
          .openapi('FraudEvidenceClick'),
        z.null(),
      ])
      .openapi({ description: 'Conversions: the latest click on the code by the same referee, device or IP address before it; else null' }),
    linked: z
      .array(
        z
          .object({
            kind: z.enum(['REFERRAL', 'CLICK', 'CONVERSION']),
            id: z.string().nullable().openapi({ description: 'The referral, click or conversion id; null when that attempt was refused after its fraud check and never stored' }),
            campaignId: z.string(),
            referralCode: z.string(),
            referrerId: z.string(),
            refereeId: z.string().nullable(),
            shared: z.array(z.enum(SIGNAL_FIELDS)).openapi({ description: 'Which of the signals it has in common (the same value as sent)' }),
            at: timestamp,
          })
          .openapi('FraudLinkedRecord'),
      )
      .openapi({
        description:
          "At most 20 other records of the app sharing the IP address, device or email: on a conversion, first the referrer's own referral " +
          'when it shares one (what SAME_IP, SAME_DEVICE and the email rules compared); then those within the velocity window before or after it, newest first',
      }),
    windowMinutes: z.number().int().openapi({ description: "The fraud service's velocity window" }),
  })
  .openapi('FraudEvidence');

export function fraudFlagRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/fraud/flags',
    tag: 'Fraud review',
    summary: 'List fraud flags, newest first or riskiest first',
    query: z.object({
      ...pageQuery,
      status: z.enum(FLAG_STATUSES).optional(),
      campaignId: id('Only this campaign').optional(),
      sort: z.enum(['createdAt', 'riskScore']).optional().openapi({ description: 'createdAt (default): newest first; riskScore: riskiest first, then newest' }),
    }),
    responses: { 200: { description: 'A page of flags', schema: z.object({ flags: z.array(FraudFlag), pagination: Pagination }) } },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listFraudFlags({
        appId,
        page: pageRequest(query),
        status: enumValue(FraudFlagStatus, query.status),
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
        schema: z.object({ flag: FraudFlag, evidence: z.union([FraudEvidence, z.null()]) }).openapi('FraudFlagDetail'),
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
