import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ApiRouter } from '../http/api-router';
import { ConversionReward, conversionRewardJson } from '../mappers/conversion.mapper';
import { Purchase, purchaseJson } from '../mappers/purchase.mapper';
import { Pagination, dateTime, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { currencyField } from '../openapi/money-fields';
import { MAX_AMOUNT } from '../openapi/number-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const conversionParams = z.object({ conversionId: id("The conversion's id (`conversionId` of POST /conversions: its level-1 record)") });

const RecordPurchaseResponse = z
  .object({
    purchase: Purchase.schema,
    rewards: z.array(ConversionReward.schema).openapi({
      description:
        "Every reward the purchase earned: each level's referrer and, double-sided, the referee (held PENDING while the conversion is " +
        "under review, or for the campaign's holdDays)",
    }),
  })
  .openapi('RecordPurchaseResponse');

const purchaseLinks = {
  ListPurchases: { method: 'get', path: '/conversions/:conversionId/purchases', parameters: { conversionId: '$response.body#/purchase/conversionId' } },
  GetReward: { method: 'get', path: '/rewards/:rewardId', parameters: { rewardId: '$response.body#/rewards/0/rewardId' } },
  GetRewardHistory: { method: 'get', path: '/rewards/:rewardId/history', parameters: { rewardId: '$response.body#/rewards/0/rewardId' } },
} as const;

export function purchaseRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/conversions/:conversionId/purchases',
    tag: 'Conversions',
    summary: 'Record a later purchase of a converted referee (a recurring commission)',
    description:
      'On a campaign with `recurringMonths`, each later payment of a converted referee (a renewal, a repeat order) earns the ' +
      "campaign's rules again, as they are now: every level's referrer and, double-sided, the referee; a percentage rule its " +
      'share of `amount` (rounded, capped by its `maxAmount`), a fixed rule its amount per purchase. maxRewardsPerReferrer does not ' +
      "cap them. Rewards are held PENDING while the conversion is FLAGGED or its fraud check deferred, and for the campaign's holdDays. " +
      'The same `externalId` again (for the conversion, for ever) or a retry with the same `Idempotency-Key` is the same purchase: ' +
      '200 with it and its rewards, never a second reward. Refused before anything is stored: a conversion that is not CONVERTED or ' +
      'FLAGGED is 422 NOT_CONVERTED (REVERSED: 422 CONVERSION_REVERSED); a campaign without `recurringMonths`, 422 NOT_RECURRING; ' +
      "a `currency` other than the campaign's, 422 CURRENCY_MISMATCH; an `occurredAt` before the conversion or more than 5 minutes " +
      'ahead, 422 OCCURRED_AT_INVALID; one after the conversion plus `recurringMonths` calendar months (a month-end day becomes the ' +
      "target month's last: Jan 31 + 1 month is Feb 28 or 29), 422 OUTSIDE_RECURRING_WINDOW. While the conversion's own rewards " +
      'are still being issued (seconds after it), 409 CONFLICT: retry.',
    params: conversionParams,
    body: z
      .object({
        amount: z
          .number()
          .gt(0, 'must be more than 0')
          .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
          .openapi({ description: "The payment, in the campaign's currency" }),
        currency: currencyField("The currency of `amount`; must be the campaign's (amounts are never converted)"),
        externalId: id('Your id of the payment (an invoice id): the same one again for this conversion answers the first purchase').optional(),
        occurredAt: dateTime('When the payment happened (default: now); the recurring window is judged by it').optional(),
      })
      .openapi('RecordPurchaseRequest'),
    responses: {
      201: { description: 'Recorded', schema: RecordPurchaseResponse, links: purchaseLinks },
      200: { description: 'Recorded before (the same externalId, or a retry of the operation): the purchase and its rewards as they are', schema: RecordPurchaseResponse, links: purchaseLinks },
    },
    errors: [404, 409, 422],
    handle: async ({ appId, params, body, operationKey }) => {
      const res = await clients.referral.recordPurchase({
        appId,
        operationKey,
        conversionId: params.conversionId,
        amount: body.amount,
        currency: body.currency,
        externalId: body.externalId,
        occurredAt: body.occurredAt ? timestampFromDate(new Date(body.occurredAt)) : undefined,
      });
      return {
        status: res.created ? 201 : 200,
        body: { purchase: purchaseJson(res.purchase!), rewards: res.rewards.map(conversionRewardJson) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/conversions/:conversionId/purchases',
    tag: 'Conversions',
    summary: 'List the purchases of a conversion, newest first',
    description: 'The purchases recorded for the conversion, by when they happened (`occurredAt`), newest first. An unknown conversion is 404.',
    params: conversionParams,
    query: z.object(pageQuery),
    responses: {
      200: { description: "A page of the conversion's purchases", schema: z.object({ purchases: z.array(Purchase.schema), pagination: Pagination }).openapi('PurchaseList') },
    },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const res = await clients.referral.listPurchases({ appId, conversionId: params.conversionId, page: pageRequest(query) });
      return { status: 200, body: { purchases: res.purchases.map(purchaseJson), pagination: pagination(query, res.page) } };
    },
  });
}
