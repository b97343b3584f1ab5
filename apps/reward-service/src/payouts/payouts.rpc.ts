import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import type { RewardService } from '@ris/contracts';
import { pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { RewardStore } from '../rewards/reward-store';
import { createPayouts, payoutsDue, type PayoutRequest } from './create-payouts';
import { payoutClawbackToProto, payoutDueToProto, payoutRewardToProto, payoutStatusFilter, payoutToProto } from './payout-messages';
import { exportPayouts, listPayouts, payoutWithItems } from './payout-reads';
import { markPayoutFailed, markPayoutPaid } from './settle-payout';

type PayoutRpc = Pick<
  ServiceImpl<typeof RewardService>,
  'previewPayouts' | 'createPayouts' | 'listPayouts' | 'getPayout' | 'markPayoutPaid' | 'markPayoutFailed' | 'exportPayouts'
>;

const payoutRequest = (req: { minimumAmount?: number; currency?: string; userId?: string }): PayoutRequest => ({
  minimumAmount: req.minimumAmount,
  currency: req.currency || undefined,
  userId: req.userId || undefined,
});

/** The reward service's payout calls (reward.rpc.ts serves them with the rest). */
export function payoutRpc(store: RewardStore): PayoutRpc {
  return {
    async previewPayouts(req, ctx) {
      return { due: (await payoutsDue(store, tenantOf(ctx), payoutRequest(req))).map(payoutDueToProto) };
    },

    async createPayouts(req, ctx) {
      const payouts = await createPayouts(store, tenantOf(ctx), { ...payoutRequest(req), operationKey: req.operationKey || undefined });
      return { payouts: payouts.map(payoutToProto) };
    },

    async listPayouts(req, ctx) {
      const page = await listPayouts(store, tenantOf(ctx), { status: payoutStatusFilter(req.status), userId: req.userId || undefined }, pageFromRequest(req.page));
      return { payouts: page.items.map(payoutToProto), page: pageReply(page) };
    },

    async getPayout(req, ctx) {
      const { payout, rewards, clawbacks } = await payoutWithItems(store, tenantOf(ctx), requiredField(req.payoutId, 'payoutId'));
      return { payout: payoutToProto(payout), rewards: rewards.map(payoutRewardToProto), clawbacks: clawbacks.map(payoutClawbackToProto) };
    },

    async markPayoutPaid(req, ctx) {
      return { payout: payoutToProto(await markPayoutPaid(store, tenantOf(ctx), requiredField(req.payoutId, 'payoutId'), requiredField(req.externalReference, 'externalReference'))) };
    },

    async markPayoutFailed(req, ctx) {
      return { payout: payoutToProto(await markPayoutFailed(store, tenantOf(ctx), requiredField(req.payoutId, 'payoutId'), requiredField(req.reason, 'reason'))) };
    },

    async *exportPayouts(req, ctx) {
      const filter = {
        status: payoutStatusFilter(req.status),
        from: req.from ? timestampDate(req.from) : undefined,
        to: req.to ? timestampDate(req.to) : undefined,
      };
      for await (const batch of exportPayouts(store, tenantOf(ctx), filter)) yield { payouts: batch.map(payoutToProto) };
    },
  };
}
