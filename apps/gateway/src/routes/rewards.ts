import { jsonColumns } from '../exports/csv-export';
import { EXPORT_CALL, batchesOf, exportRoute } from '../exports/export-route';
import type { Principal } from '../console/access/principal';
import type { ApiRouter } from '../http/api-router';
import { isoTime } from '../mappers/proto-json';
import { FulfillmentTypes } from '../mappers/campaign.mapper';
import { Clawback, clawbackJson } from '../mappers/reversal.mapper';
import { Reward, RewardMove, RewardStatuses, rewardHistoryJson, rewardJson } from '../mappers/reward.mapper';
import { Pagination, id, pageQuery, pageRequest, pagination, timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { freeText } from '../openapi/text-fields';
import { z } from '../openapi/zod';
import type { ServiceClients } from '../service-clients';

const RewardList = z.object({ rewards: z.array(Reward.schema), pagination: Pagination }).openapi('RewardList');
const RewardEnvelope = z.object({ reward: Reward.schema });
const rewardParams = z.object({ rewardId: id('Reward id') });

/** The filters of GET /rewards and its export. */
const rewardFilters = {
  userId: id('Only this user').optional(),
  status: RewardStatuses.schema.optional(),
  fulfillmentType: FulfillmentTypes.schema.optional(),
};

const rewardRequest = (query: z.output<z.ZodObject<typeof rewardFilters>>) => ({
  userId: query.userId,
  status: RewardStatuses.value(query.status),
  fulfillmentType: FulfillmentTypes.value(query.fulfillmentType),
});

export function rewardRoutes(api: ApiRouter, clients: ServiceClients): void {
  /** `{reward}` as it is now. */
  const rewardAnswer = async (appId: string, rewardId: string) => {
    const { reward } = await clients.reward.getReward({ appId, rewardId });
    return { reward: rewardJson(reward!) };
  };

  api.route({
    method: 'get',
    path: '/rewards',
    tag: 'Rewards',
    summary: 'List rewards, newest first',
    query: z.object({ ...pageQuery, ...rewardFilters }),
    responses: { 200: { description: 'A page of rewards', schema: RewardList } },
    handle: async ({ appId, query }) => {
      const res = await clients.reward.listRewards({ appId, page: pageRequest(query), ...rewardRequest(query) });
      return {
        status: 200,
        body: { rewards: res.rewards.map(rewardJson), pagination: pagination(query, res.page) },
      };
    },
  });

  // Registered before /rewards/:rewardId, which would otherwise take "export" for an id.
  exportRoute(api, {
    path: '/rewards/export',
    tag: 'Rewards',
    what: 'rewards',
    description: 'The rewards GET /rewards lists with the same filters (every page).',
    query: z.object(rewardFilters),
    columns: jsonColumns(Reward.schema),
    rows: ({ appId, query }) => batchesOf(clients.reward.exportRewards({ appId, ...rewardRequest(query) }, EXPORT_CALL), (m) => m.rewards.map(rewardJson)),
  });

  // Registered before /rewards/:rewardId, which would otherwise take "validate" for an id.
  api.route({
    method: 'get',
    path: '/rewards/validate',
    tag: 'Rewards',
    summary: 'Validate a discount or coupon code',
    description:
      'Always 200. valid is false for an unknown code (another app\'s included), an expired one, or one whose reward is PAID or CANCELLED ' +
      "(REVERSED when a refund or chargeback of its sale cancelled it); reason says which. type is the reward's fulfillmentType, discount its amount.",
    query: z.object({ code: id('The code, in any case, with or without dashes') }),
    responses: {
      200: {
        description: 'The validation result',
        schema: z
          .object({
            valid: z.boolean(),
            code: z.string(),
            type: FulfillmentTypes.schema.nullable(),
            discount: z.number().nullable(),
            expiresAt: timestamp.nullable(),
            reason: z.enum(['NOT_FOUND', 'EXPIRED', 'REDEEMED', 'CANCELLED', 'REVERSED', 'NOT_APPROVED']).nullable(),
          })
          .openapi('CodeValidation'),
      },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.reward.validateCode({ appId, code: query.code });
      const reward = res.reward ? rewardJson(res.reward) : null;
      return {
        status: 200,
        body: {
          valid: res.valid,
          code: res.code,
          type: reward?.fulfillmentType ?? null,
          discount: reward?.amount ?? null,
          expiresAt: reward?.expiresAt ?? null,
          reason: res.reason ?? null,
        },
      };
    },
  });

  // Registered before /rewards/:rewardId, as /rewards/validate.
  api.route({
    method: 'get',
    path: '/rewards/clawbacks',
    tag: 'Rewards',
    summary: 'List what referrers owe back for rewards paid before their sale was reversed',
    description:
      'A reversal (POST /conversions/{conversionId}/reversals) cannot take back a reward already redeemed or paid: it records what the ' +
      "reward's owner owes back here, newest first, of one user (`userId`) or of every user. The referrer's next payout deducts it " +
      '(`payoutId`), and it is settled once that payout is paid (`settledAt`). `totals` sums what the listed user (or every user) still ' +
      'owes (not settled) over every page, per currency.',
    query: z.object({ ...pageQuery, userId: id('Only what this user owes').optional() }),
    responses: {
      200: {
        description: 'A page of clawbacks, and their sums',
        schema: z
          .object({
            clawbacks: z.array(Clawback.schema),
            totals: z.array(z.object({ currency: currencyCode('ISO 4217'), amount: z.number() }).openapi('AmountInCurrency')),
            pagination: Pagination,
          })
          .openapi('ClawbackList'),
      },
    },
    handle: async ({ appId, query }) => {
      const res = await clients.reward.listClawbacks({ appId, userId: query.userId, page: pageRequest(query) });
      return {
        status: 200,
        body: {
          clawbacks: res.clawbacks.map(clawbackJson),
          totals: res.totals.map((t) => ({ currency: t.currency, amount: Math.round(t.amount * 100) / 100 })),
          pagination: pagination(query, res.page),
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/rewards/:rewardId',
    tag: 'Rewards',
    summary: 'Get a reward',
    params: rewardParams,
    responses: { 200: { description: 'The reward', schema: RewardEnvelope } },
    errors: [404],
    handle: async ({ appId, params }) => ({ status: 200, body: await rewardAnswer(appId, params.rewardId) }),
  });

  api.route({
    method: 'get',
    path: '/rewards/:rewardId/history',
    tag: 'Rewards',
    summary: "A reward's status changes, oldest first",
    description:
      'From the reward\'s move journal: its creation (from NEW to PENDING or APPROVED), then each status it left (PENDING → APPROVED, ' +
      'APPROVED → PAID, PENDING or APPROVED → CANCELLED), each at the time it was decided. A reward leaves a status at most once.',
    params: rewardParams,
    responses: { 200: { description: 'The history', schema: z.object({ history: z.array(RewardMove.schema) }).openapi('RewardHistory') } },
    errors: [404],
    handle: async ({ appId, params }) => {
      const { moves } = await clients.reward.getRewardHistory({ appId, rewardId: params.rewardId });
      return { status: 200, body: { history: moves.map(rewardHistoryJson) } };
    },
  });

  api.route({
    method: 'post',
    path: '/rewards/:rewardId/claim',
    tag: 'Rewards',
    summary: "Claim a reward's discount or coupon code",
    description:
      'Only an APPROVED DISCOUNT_CODE or COUPON_CODE reward (else 422 REWARD_NOT_CLAIMABLE: a reward held for review cannot be claimed ' +
      'until approved). Issues a unique code valid for the campaign\'s rewardCodeValidityDays (default 90); claiming again returns the same code.',
    params: rewardParams,
    responses: {
      200: {
        description: 'The code',
        schema: z.object({ success: z.boolean(), discountCode: z.string(), expiresAt: timestamp, reward: Reward.schema }).openapi('ClaimRewardResponse'),
        links: { ValidateCode: { method: 'get', path: '/rewards/validate', parameters: { code: '$response.body#/discountCode' } } },
      },
    },
    errors: [404, 422],
    handle: async ({ appId, params }) => {
      const { reward } = await clients.reward.claimReward({ appId, rewardId: params.rewardId });
      return {
        status: 200,
        body: { success: true, discountCode: reward!.discountCode ?? '', expiresAt: isoTime(reward!.expiresAt), reward: rewardJson(reward!) },
      };
    },
  });

  /** The operator deciding through the dashboard (an API key decides as nobody in particular). */
  const decider = (principal: Principal | undefined) =>
    principal?.kind === 'operator' ? { operatorId: principal.operatorId, email: principal.email } : undefined;
  const noteBody = z.object({ note: freeText(2000).optional().openapi({ description: 'Why: kept with the decision' }) }).optional();

  /** An operator's decision about one reward, made by the referral service (which keeps the figures), answered with the reward. */
  const decision = (def: { action: 'approve' | 'cancel'; summary: string; description: string; bodyName: string; done: string; errors: number[] }) =>
    api.route({
      method: 'post',
      path: `/rewards/:rewardId/${def.action}`,
      tag: 'Rewards',
      summary: def.summary,
      description: def.description,
      params: rewardParams,
      body: noteBody.openapi(def.bodyName),
      responses: { 200: { description: `The reward, ${def.done}`, schema: RewardEnvelope } },
      errors: def.errors,
      handle: async ({ appId, params, body, operationKey, principal }) => {
        const request = { appId, rewardId: params.rewardId, note: body?.note, operationKey, decidedBy: decider(principal) };
        await (def.action === 'approve' ? clients.referral.approveConversionReward(request) : clients.referral.cancelConversionReward(request));
        return { status: 200, body: await rewardAnswer(appId, params.rewardId) };
      },
    });

  decision({
    action: 'approve',
    summary: 'Approve a reward held for review (PENDING → APPROVED)',
    description:
      "A reward held by its conversion's open fraud flag is approved by approving that flag (as POST /fraud/flags/{flagId}/resolve " +
      'does: every held reward of the conversion with it, the conversion CONVERTED); one held because the fraud check could not run is ' +
      "approved on the operator's word. A reward that is not PENDING is 409 INVALID_TRANSITION; one held for another reason, 422 REWARD_HELD.",
    bodyName: 'ApproveRewardRequest',
    done: 'approved',
    errors: [404, 409, 422],
  });

  decision({
    action: 'cancel',
    summary: 'Cancel a reward (PENDING or APPROVED → CANCELLED), with a note',
    description:
      "Its code, if claimed, no longer validates; the campaign's reward value, the referrer's totals and the participant's reward value " +
      'leave it. PAID or CANCELLED already: 409 INVALID_TRANSITION (a retry with the same `Idempotency-Key` answers the cancelled reward).',
    bodyName: 'CancelRewardRequest',
    done: 'cancelled',
    errors: [404, 409],
  });

  api.route({
    method: 'post',
    path: '/rewards/redeem',
    tag: 'Rewards',
    summary: 'Mark a reward fulfilled (APPROVED → PAID)',
    description:
      "The reward must belong to userId (else 404). Only an APPROVED reward can be redeemed; any other status is 409 INVALID_TRANSITION " +
      '(of two concurrent redeems, one succeeds). A retry with the `Idempotency-Key` of the request that paid it answers the paid reward again.',
    body: z.object({ rewardId: id('Reward id'), userId: id('The reward\'s user') }).openapi('RedeemRewardRequest'),
    responses: {
      200: {
        description: 'Redeemed',
        schema: z.object({ success: z.boolean(), reward: Reward.schema }).openapi('RedeemRewardResponse'),
        links: { GetReward: { method: 'get', path: '/rewards/:rewardId', parameters: { rewardId: '$response.body#/reward/id' } } },
      },
    },
    errors: [404, 409],
    handle: async ({ appId, body, operationKey }) => {
      const { reward } = await clients.reward.redeemReward({ appId, rewardId: body.rewardId, userId: body.userId, operationKey });
      return { status: 200, body: { success: true, reward: rewardJson(reward!) } };
    },
  });

  api.route({
    method: 'get',
    path: '/users/:userId/rewards',
    tag: 'Rewards',
    summary: 'Rewards a user earned, newest first',
    params: z.object({ userId: id('User id') }),
    query: z.object(pageQuery),
    responses: { 200: { description: "A page of the user's rewards", schema: RewardList } },
    handle: async ({ appId, params, query }) => {
      const res = await clients.reward.listRewards({ appId, page: pageRequest(query), userId: params.userId });
      return {
        status: 200,
        body: { rewards: res.rewards.map(rewardJson), pagination: pagination(query, res.page) },
      };
    },
  });
}
