import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { jsonColumns } from '../exports/csv-export';
import { EXPORT_CALL, batchesOf, exportRoute } from '../exports/export-route';
import type { ApiRouter } from '../http/api-router';
import { Payout, PayoutClawback, PayoutDue, PayoutReward, PayoutStatuses, payoutJson } from '../mappers/payout.mapper';
import { Pagination, dateTime, id, pageQuery, pageRequest, pagination } from '../openapi/common-schemas';
import { currencyField } from '../openapi/money-fields';
import { MAX_AMOUNT } from '../openapi/number-fields';
import { amountFromQuery } from '../openapi/query-values';
import { requiredText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const payoutParams = z.object({ payoutId: id('Payout id') });

/** How long POST /payouts may run: thousands of referrers' rewards are claimed in it (results/payouts.md). */
const CREATE_PAYOUTS_CALL = { timeoutMs: 5 * 60_000 };
const PayoutEnvelope = z.object({ payout: Payout.schema }).openapi('PayoutEnvelope');

/** Which referrers and currencies, and the least a payout may be: POST /payouts and GET /payouts/due. */
const dueFields = {
  minimumAmount: z
    .number()
    .min(0, 'must be 0 or more')
    .max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`)
    .optional()
    .openapi({ description: "A referrer is paid only when what they are due reaches this (in the payout's currency); default 0: anything above 0" }),
  currency: currencyField('Only rewards and clawbacks in this currency; absent: every currency, one payout per referrer and currency'),
  userId: id('Only this referrer').optional(),
};

/** GET /payouts/due's query: the same fields, the minimum read from the query string. */
const dueQuery = z.object({
  ...dueFields,
  minimumAmount: amountFromQuery('minimumAmount', MAX_AMOUNT)
    .optional()
    .openapi({ type: 'number', minimum: 0, maximum: MAX_AMOUNT, description: 'As POST /payouts: what a referrer must be due at least to be payable; default 0' }),
});

/** Where a made payout leads: its reads and its two ends. */
const payoutLinks = {
  GetPayout: { method: 'get', path: '/payouts/:payoutId', parameters: { payoutId: '$response.body#/payouts/0/id' } },
  MarkPayoutPaid: { method: 'post', path: '/payouts/:payoutId/paid', parameters: { payoutId: '$response.body#/payouts/0/id' } },
  MarkPayoutFailed: { method: 'post', path: '/payouts/:payoutId/failed', parameters: { payoutId: '$response.body#/payouts/0/id' } },
  ListPayouts: { method: 'get', path: '/payouts', parameters: { userId: '$response.body#/payouts/0/userId' } },
} as const;

const payoutFilters = {
  status: PayoutStatuses.schema.optional(),
  userId: id("Only this referrer's payouts").optional(),
};

const PAYOUT_RULES =
  "A payout gathers one referrer's payable CASH rewards (APPROVED, after their holding period, in no PENDING or PAID payout) in one " +
  'currency, less the clawbacks they owe (reversals of rewards paid before: GET /rewards/clawbacks) in no payout. ';

export function payoutRoutes(api: ApiRouter, clients: ServiceClients): void {
  api.route({
    method: 'get',
    path: '/payouts/due',
    tag: 'Payouts',
    summary: 'What each referrer is due now, before making payouts',
    description:
      PAYOUT_RULES +
      'Lists, per referrer and currency, what POST /payouts with the same fields would gather, largest first; `payable` says whether it ' +
      'would be paid (more than 0 and at least `minimumAmount`). A referrer who owes more than they earned is listed with an amount of 0 ' +
      'or less. Nothing is reserved.',
    query: dueQuery,
    responses: { 200: { description: 'What is due', schema: z.object({ due: z.array(PayoutDue.schema) }).openapi('PayoutsDue') } },
    handle: async ({ appId, query }) => {
      const res = await clients.reward.previewPayouts({ appId, minimumAmount: query.minimumAmount, currency: query.currency, userId: query.userId });
      return { status: 200, body: { due: res.due.map(PayoutDue.json) } };
    },
  });

  api.route({
    method: 'post',
    path: '/payouts',
    tag: 'Payouts',
    summary: 'Make payouts of what referrers are due',
    description:
      PAYOUT_RULES +
      'Makes one PENDING payout per referrer and currency whose rewards less clawbacks reach `minimumAmount` (and are more than 0), ' +
      "and answers them (an empty list when nothing is due). A reward or clawback is in one PENDING or PAID payout at most, whatever " +
      'runs at once (concurrent calls, a reversal, another replica); a reversal of a reward in a PENDING payout claws it back (the ' +
      "referrer's next payout deducts it) instead of reducing it, and a reward in a payout cannot be cancelled (409 REWARD_IN_PAYOUT). " +
      'A crash while payouts are made loses nothing: a payout not finished is undone and its rewards are payable again. A retry with ' +
      'the same Idempotency-Key is answered as the first try was. `payout.created` is sent for each.',
    body: z.object(dueFields).optional().openapi('CreatePayoutsRequest'),
    responses: {
      201: {
        description: 'The payouts made (none: nothing was due)',
        schema: z.object({ payouts: z.array(Payout.schema) }).openapi('CreatePayoutsResponse'),
        links: payoutLinks,
      },
    },
    errors: [422],
    handle: async ({ appId, body, operationKey }) => {
      const res = await clients.reward.createPayouts(
        { appId, operationKey, minimumAmount: body?.minimumAmount, currency: body?.currency, userId: body?.userId },
        CREATE_PAYOUTS_CALL,
      );
      return { status: 201, body: { payouts: res.payouts.map(payoutJson) } };
    },
  });

  api.route({
    method: 'get',
    path: '/payouts',
    tag: 'Payouts',
    summary: 'List payouts, newest first',
    query: z.object({ ...pageQuery, ...payoutFilters }),
    responses: { 200: { description: 'A page of payouts', schema: z.object({ payouts: z.array(Payout.schema), pagination: Pagination }).openapi('PayoutList') } },
    handle: async ({ appId, query }) => {
      const res = await clients.reward.listPayouts({ appId, status: PayoutStatuses.value(query.status), userId: query.userId, page: pageRequest(query) });
      return { status: 200, body: { payouts: res.payouts.map(payoutJson), pagination: pagination(query, res.page) } };
    },
  });

  // Registered before /payouts/:payoutId, which would otherwise take "export" for an id.
  exportRoute(api, {
    path: '/payouts/export',
    tag: 'Payouts',
    what: 'payouts',
    description: 'The payouts for finance: those GET /payouts lists with `status`, created from `from` (inclusive) to `to` (exclusive), newest first.',
    query: z.object({
      status: PayoutStatuses.schema.optional(),
      from: dateTime('Created at or after').optional(),
      to: dateTime('Created before').optional(),
    }),
    columns: jsonColumns(Payout.schema),
    rows: ({ appId, query }) =>
      batchesOf(
        clients.reward.exportPayouts(
          {
            appId,
            status: PayoutStatuses.value(query.status),
            from: query.from ? timestampFromDate(new Date(query.from)) : undefined,
            to: query.to ? timestampFromDate(new Date(query.to)) : undefined,
          },
          EXPORT_CALL,
        ),
        (m) => m.payouts.map(payoutJson),
      ),
  });

  api.route({
    method: 'get',
    path: '/payouts/:payoutId',
    tag: 'Payouts',
    summary: 'Get a payout with the rewards it pays and the clawbacks it deducts',
    params: payoutParams,
    responses: {
      200: {
        description: 'The payout, its rewards and clawbacks (oldest first)',
        schema: z.object({ payout: Payout.schema, rewards: z.array(PayoutReward.schema), clawbacks: z.array(PayoutClawback.schema) }).openapi('PayoutDetail'),
      },
    },
    errors: [404],
    handle: async ({ appId, params }) => {
      const res = await clients.reward.getPayout({ appId, payoutId: params.payoutId });
      return { status: 200, body: { payout: payoutJson(res.payout!), rewards: res.rewards.map(PayoutReward.json), clawbacks: res.clawbacks.map(PayoutClawback.json) } };
    },
  });

  api.route({
    method: 'post',
    path: '/payouts/:payoutId/paid',
    tag: 'Payouts',
    summary: 'Mark a payout paid, with the transfer\'s reference',
    description:
      'PENDING → PAID: its rewards become PAID and its clawbacks settled; `payout.paid` is sent. Again with the same reference: 200 with ' +
      'the payout as it is. Any other payout not PENDING: 409 INVALID_TRANSITION.',
    params: payoutParams,
    body: z.object({ externalReference: requiredText(200).openapi({ description: "The transfer's reference in your bank or payment system" }) }).openapi('MarkPayoutPaidRequest'),
    responses: { 200: { description: 'Paid', schema: PayoutEnvelope } },
    errors: [404, 409],
    handle: async ({ appId, params, body }) => {
      const res = await clients.reward.markPayoutPaid({ appId, payoutId: params.payoutId, externalReference: body.externalReference });
      return { status: 200, body: { payout: payoutJson(res.payout!) } };
    },
  });

  api.route({
    method: 'post',
    path: '/payouts/:payoutId/failed',
    tag: 'Payouts',
    summary: 'Mark a payout failed',
    description:
      'PENDING → FAILED: its rewards and clawbacks leave it, payable and owed again (the next POST /payouts includes them); ' +
      '`payout.failed` is sent. Again with the same reason: 200 with the payout as it is. Any other payout not PENDING: 409 INVALID_TRANSITION.',
    params: payoutParams,
    body: z.object({ reason: requiredText(500).openapi({ description: 'Why the transfer failed' }) }).openapi('MarkPayoutFailedRequest'),
    responses: { 200: { description: 'Failed', schema: PayoutEnvelope } },
    errors: [404, 409],
    handle: async ({ appId, params, body }) => {
      const res = await clients.reward.markPayoutFailed({ appId, payoutId: params.payoutId, reason: body.reason });
      return { status: 200, body: { payout: payoutJson(res.payout!) } };
    },
  });
}
