import { ReversalReason, enumValue } from '@ris/contracts';
import type { ApiRouter } from '../http/api-router';
import { Conversion, conversionJson } from '../mappers/conversion.mapper';
import { Reversal, ReversalReasons, RewardReversal, reversalJson, rewardReversalJson } from '../mappers/reversal.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { MAX_AMOUNT } from '../openapi/number-fields';
import { freeText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const conversionParams = z.object({ conversionId: id("The conversion's id (`conversionId` of POST /conversions: its level-1 record)") });

const ReverseConversionResponse = z
  .object({
    reversal: Reversal.schema,
    conversion: Conversion.schema.openapi({ description: 'The level-1 record after the reversal (REVERSED once its own sale is reversed in full)' }),
    rewards: z.array(RewardReversal.schema).openapi({ description: "What the reversal did to each reward of the sale (every level's referrer and the referee)" }),
  })
  .openapi('ReverseConversionResponse');

const reversalLinks = {
  ListReversals: { method: 'get', path: '/conversions/:conversionId/reversals', parameters: { conversionId: '$response.body#/reversal/conversionId' } },
  ListClawbacks: { method: 'get', path: '/rewards/clawbacks', parameters: { userId: '$response.body#/conversion/referrerId' } },
} as const;

export function reversalRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'post',
    path: '/conversions/:conversionId/reversals',
    tag: 'Conversions',
    summary: 'Reverse a conversion or one of its purchases (a refund, a chargeback, a cancellation), in full or in part',
    description:
      'Without `amount`, reverses all that is left of the sale: the conversion\'s own (or the purchase named by `purchaseId`). With ' +
      '`amount`, a part of it: never more than what is left (422 REVERSAL_EXCEEDS_SALE), and only of a sale recorded with an amount ' +
      "(422 AMOUNT_NOT_REVERSIBLE). Each reward of the sale follows: a percentage reward shrinks in proportion to what is left of the sale; " +
      'a fixed reward is taken back only by a full reversal; a reward not paid out (PENDING, APPROVED, claimed with its code unredeemed) is ' +
      'reduced or cancelled (its code then validates as REVERSED); a reward already redeemed keeps its status and what it no longer is ' +
      "worth is owed back (a clawback: GET /rewards/clawbacks). The conversion reads REVERSED once its own sale is reversed in full; the " +
      "referrer's referral credit in the incentive engine is taken back then (a REVERSAL ledger entry, never below zero). Figures: the " +
      "campaign's reward value falls by what was taken back, its reversals count one more. A crash cannot leave the reversal half " +
      'done: the sale, its rewards and its events are finished by the recovery passes, each once (the figures, as every counter, can ' +
      'fall short by a reversal whose process died between its count and its increments). ' +
      'A retry with the same Idempotency-Key is answered as the first try was; a full reversal of a sale reversed in full already ' +
      'changes nothing: 200 with the first full reversal. A conversion that did not convert, or was REJECTED, is 422 NOT_CONVERTED; while its rewards are still being ' +
      'issued (seconds after it), 409 CONFLICT: retry (not stored against the Idempotency-Key).',
    params: conversionParams,
    body: z
      .object({
        reason: ReversalReasons.schema,
        amount: z
          .number()
          .gt(0, 'must be more than 0')
          .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
          .optional()
          .openapi({ description: "The part reversed, in the campaign's currency; absent: all that is left" }),
        purchaseId: id('The purchase to reverse (POST /conversions/{conversionId}/purchases); absent: the conversion\'s own sale').optional(),
        note: freeText(2000).optional().openapi({ description: 'Why, for the people who read it later (kept on the reversal and on the rewards it cancels)' }),
      })
      .openapi('ReverseConversionRequest'),
    responses: {
      201: { description: 'Reversed', schema: ReverseConversionResponse, links: reversalLinks },
      200: { description: 'Reversed before (a retry, or the sale was reversed in full already): the first reversal, nothing changed', schema: ReverseConversionResponse, links: reversalLinks },
    },
    errors: [404, 409, 422],
    handle: async ({ appId, params, body, operationKey }) => {
      const res = await clients.referral.reverseConversion({
        appId,
        operationKey,
        conversionId: params.conversionId,
        reason: enumValue(ReversalReason, body.reason),
        amount: body.amount,
        purchaseId: body.purchaseId,
        note: body.note,
      });
      return {
        status: res.created ? 201 : 200,
        body: { reversal: reversalJson(res.reversal!), conversion: conversionJson(res.conversion!), rewards: res.rewards.map(rewardReversalJson) },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/conversions/:conversionId/reversals',
    tag: 'Conversions',
    summary: 'List the reversals of a conversion and its purchases, newest first',
    description: "The conversion's reversals, its purchases' included (`purchaseId` says which), newest first.",
    params: conversionParams,
    query: z.object(pageQuery),
    responses: {
      200: { description: "A page of the conversion's reversals", schema: z.object({ reversals: z.array(Reversal.schema), pagination: Pagination }).openapi('ReversalList') },
    },
    errors: [404],
    handle: async ({ appId, params, query }) => {
      const res = await clients.referral.listReversals({ appId, conversionId: params.conversionId, page: pageRequest(query) });
      return { status: 200, body: { reversals: res.reversals.map(reversalJson), pagination: pagination(query, res.page) } };
    },
  });
}
