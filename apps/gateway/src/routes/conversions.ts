import type { JsonObject } from '@bufbuild/protobuf';
import { DEFAULT_CURRENCY } from '@ris/contracts';
import { type CsvColumn } from '../exports/csv-export';
import { EXPORT_TIMEOUT_MS, exportRoute } from '../exports/export-route';
import type { ApiRouter } from '../http/api-router';
import {
  Conversion,
  ConversionReward,
  ConversionStatuses,
  RecordedConversionStatuses,
  Upline,
  conversionJson,
  conversionRewardJson,
  uplineJson,
} from '../mappers/conversion.mapper';
import { FraudFields, ReferralStatuses, fraudFields } from '../mappers/referral.mapper';
import { Pagination, clientContextFields, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { currencyCode, currencyField } from '../openapi/money-fields';
import { decimalAmount } from '../openapi/number-fields';
import { jsonObject } from '../openapi/json-object';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const RecordConversionResponse = z
  .object({
    success: z.boolean(),
    referralId: z.string(),
    conversionId: z.string(),
    rewardAmount: z.number().openapi({ description: "The direct referrer's reward (0 when none was created)" }),
    currency: currencyCode("ISO 4217 code of the conversion's amount and of its rewards: the campaign's"),
    rewardCreated: z.boolean().openapi({ description: 'Whether the direct referrer got a reward' }),
    status: ReferralStatuses.schema.openapi({ description: "The referral's status: COMPLETED from its first conversion" }),
    conversionStatus: RecordedConversionStatuses.schema,
    refereeId: z.string(),
    referrerId: z.string(),
    ...FraudFields,
    fraudCheck: z.enum(['DONE', 'DEFERRED']).openapi({
      description: 'DEFERRED: the fraud check could not run; the conversion is recorded, its rewards are held PENDING and it is scored shortly',
    }),
    rewards: z.array(ConversionReward.schema).openapi({ description: 'Every reward this conversion created: each level and, double-sided, the referee' }),
    upline: z
      .array(Upline.schema)
      .openapi({ description: 'Records written for the referrers above the direct one (multi-level campaigns)' }),
  })
  .openapi('RecordConversionResponse');

export function conversionRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/conversions',
    tag: 'Conversions',
    summary: 'Record that a referred user converted',
    description:
      'Attributes the conversion to the code (and, on multi-level campaigns, to the referrers above it: one record per level ' +
      "with that level's amount). Creates the rewards: APPROVED at once when clean, held PENDING when the fraud check flags the " +
      'conversion (status FLAGGED, see /fraud/flags) or could not run. A referee converts once per campaign: a second conversion ' +
      'is 409 ALREADY_CONVERTED. A conversion later than the campaign\'s attributionWindowDays after the referee first used the code ' +
      'is recorded without rewards. maxRewardsPerReferrer caps the rewards a referrer earns in the campaign. ' +
      'A retry with the same `Idempotency-Key` (after a 503, a timeout or a dropped connection) is the same conversion: it ' +
      'finishes what the first try left and answers it again, never 409 ALREADY_CONVERTED. A percentage rule pays its share of `amount` ' +
      '(rounded half away from zero to the currency\'s smallest unit, capped by its `maxAmount`): on a campaign with one, a conversion without `amount` is ' +
      "422 AMOUNT_REQUIRED; a `currency` other than the campaign's is 422 CURRENCY_MISMATCH. Both are refused before anything is stored.",
    body: z
      .object({
        referralCode: id('Referral code the referee used (case-insensitive)'),
        refereeId: id('The referred user who converted'),
        amount: decimalAmount()
          .optional()
          .openapi({ description: "Monetary value of the conversion, in the campaign's currency; required when a rule of the campaign pays a percent" }),
        currency: currencyField("The currency of `amount`; must be the campaign's (amounts are never converted)"),
        metadata: jsonObject('Arbitrary key-value data, kept with the conversion').optional(),
        ...clientContextFields,
      })
      .openapi('RecordConversionRequest'),
    responses: {
      201: {
        description: 'Recorded',
        schema: RecordConversionResponse,
        links: {
          GetReward: { method: 'get', path: '/rewards/:rewardId', parameters: { rewardId: '$response.body#/rewards/0/rewardId' } },
          ClaimReward: { method: 'post', path: '/rewards/:rewardId/claim', parameters: { rewardId: '$response.body#/rewards/0/rewardId' } },
          RedeemReward: {
            method: 'post',
            path: '/rewards/redeem',
            requestBody: { rewardId: '$response.body#/rewards/0/rewardId', userId: '$response.body#/rewards/0/userId' },
          },
          GetReferrerStats: { method: 'get', path: '/users/:userId/stats', parameters: { userId: '$response.body#/referrerId' } },
          GetRewardHistory: { method: 'get', path: '/rewards/:rewardId/history', parameters: { rewardId: '$response.body#/rewards/0/rewardId' } },
          ListRefereeConversions: { method: 'get', path: '/conversions', parameters: { userId: '$response.body#/refereeId' } },
          ListReferrerRewards: { method: 'get', path: '/users/:userId/rewards', parameters: { userId: '$response.body#/referrerId' } },
          RecordPurchase: { method: 'post', path: '/conversions/:conversionId/purchases', parameters: { conversionId: '$response.body#/conversionId' } },
          ReverseConversion: { method: 'post', path: '/conversions/:conversionId/reversals', parameters: { conversionId: '$response.body#/conversionId' } },
          ListReversals: { method: 'get', path: '/conversions/:conversionId/reversals', parameters: { conversionId: '$response.body#/conversionId' } },
        },
      },
    },
    errors: [404, 409, 422],
    handle: async ({ appId, body, operationKey }) => {
      const res = await clients.referral.recordConversion({
        appId,
        operationKey,
        referralCode: body.referralCode,
        refereeId: body.refereeId,
        amount: body.amount,
        currency: body.currency,
        // Parsed from the JSON body, so every value is JSON.
        metadata: body.metadata as JsonObject | undefined,
        context: { ip: body.ip, userAgent: body.userAgent, deviceId: body.deviceId, email: body.email },
      });
      const conversion = res.conversion!;
      return {
        status: 201,
        body: {
          success: true,
          referralId: conversion.referralId,
          conversionId: conversion.conversionId,
          rewardAmount: res.rewardAmount,
          currency: conversion.currency || DEFAULT_CURRENCY,
          rewardCreated: res.rewardCreated,
          status: ReferralStatuses.name(res.referralStatus) ?? 'COMPLETED',
          conversionStatus: ConversionStatuses.name(conversion.status) ?? 'CONVERTED',
          refereeId: conversion.refereeId,
          referrerId: conversion.referrerId,
          ...fraudFields(conversion.fraud),
          fraudCheck: conversion.fraudCheckDeferred ? 'DEFERRED' : 'DONE',
          rewards: res.rewards.map(conversionRewardJson),
          upline: res.upline.map(uplineJson),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/conversions',
    tag: 'Conversions',
    summary: 'List conversion records, newest activity first',
    description:
      'Funnel records (PENDING, CLICKED) and conversions (CONVERTED, FLAGGED, REJECTED), one per referee and level. ' +
      'referralCode filters by the code the referee used, so it returns that conversion chain at every level. ' +
      'userId lists the records where that user is the referrer or the referee (a record of both once).',
    query: z.object({ ...pageQuery, ...conversionFilters }),
    responses: {
      200: { description: 'A page of conversion records', schema: z.object({ conversions: z.array(Conversion.schema), pagination: Pagination }) },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.referral.listConversions({ appId, page: pageRequest(query), ...conversionRequest(query) });
      return {
        status: 200,
        body: {
          conversions: res.conversions.map(conversionJson),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  exportRoute(api, {
    path: '/conversions/export',
    tag: 'Conversions',
    what: 'conversions',
    description: 'The records GET /conversions lists with the same filters (every page).',
    query: z.object(conversionFilters),
    columns: CONVERSION_COLUMNS,
    rows: async function* ({ appId, query }) {
      const stream = clients.referral.exportConversions({ appId, ...conversionRequest(query) }, { timeoutMs: EXPORT_TIMEOUT_MS });
      for await (const batch of stream) yield batch.conversions.map(conversionJson);
    },
  });
}

/** The filters of GET /conversions and its export. */
const conversionFilters = {
  campaignId: id('Only this campaign').optional(),
  referralCode: id('Original referral code').optional(),
  status: ConversionStatuses.schema.optional(),
  userId: id('Only records where this user is the referrer or the referee').optional(),
};

const conversionRequest = (query: { campaignId?: string; referralCode?: string; status?: ConversionStatusName; userId?: string }) => ({
  campaignId: query.campaignId,
  referralCode: query.referralCode,
  status: ConversionStatuses.value(query.status),
  userId: query.userId,
});

type ConversionJson = ReturnType<typeof conversionJson>;
type ConversionStatusName = (typeof ConversionStatuses.names)[number];

/** A conversion record as its CSV row: the list's fields, the campaign flattened. */
const CONVERSION_COLUMNS: CsvColumn<ConversionJson>[] = [
  ...(['id', 'conversionId', 'level', 'status', 'referralId', 'referralCode', 'originalReferralCode', 'referrerId', 'refereeId', 'amount', 'currency', 'rewardAmount', 'isFlagged'] as const).map(
    (field) => ({ header: field, value: (row: ConversionJson) => row[field] }),
  ),
  { header: 'campaignId', value: (row) => row.Campaign?.id ?? null },
  { header: 'campaignName', value: (row) => row.Campaign?.name ?? null },
  { header: 'convertedAt', value: (row) => row.convertedAt },
  { header: 'createdAt', value: (row) => row.createdAt },
];
