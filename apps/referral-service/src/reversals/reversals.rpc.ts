import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { ReversalReason, ReversalSchema, enumName, enumValue, type ReferralService, type Reversal } from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import type { Campaigns } from '../campaigns/campaigns';
import { conversionMessage } from '../conversions/conversions.rpc';
import type { ReversalDoc, ReversalReasonName } from './reversal.model';
import type { ReversalRepository } from './reversal.repository';
import type { ConversionReversals } from './reverse-conversion';

/** A reversal as the contract shows it. */
export const reversalMessage = (doc: ReversalDoc): Reversal =>
  create(ReversalSchema, {
    id: doc._id,
    conversionId: doc.conversionId,
    purchaseId: doc.purchaseId ?? undefined,
    reason: enumValue(ReversalReason, doc.reason),
    amount: doc.amount,
    full: doc.full,
    note: doc.note ?? undefined,
    currency: doc.currency,
    rewardAmountReversed: doc.rewardAmountReversed,
    clawbackAmount: doc.clawbackAmount,
    createdAt: timestampFromDate(doc.createdAt),
  });

type ReversalCalls = Pick<ServiceImpl<typeof ReferralService>, 'reverseConversion' | 'listReversals'>;

/** Reversals at the edge: a refund, chargeback or cancellation applied to a conversion or a purchase; a conversion's reversals listed. */
export function reversalCalls(reversals: ConversionReversals, stored: ReversalRepository, campaigns: Campaigns): ReversalCalls {
  return {
    async reverseConversion(req, ctx) {
      const appId = tenantOf(ctx);
      const reason = enumName(ReversalReason, req.reason) as ReversalReasonName | undefined;
      if (!reason) throw invalidArgument('reason is required: REFUND, CHARGEBACK, CANCELLATION or OTHER');
      if (req.amount !== undefined && (!Number.isFinite(req.amount) || req.amount <= 0)) throw invalidArgument('amount must be a number more than 0');
      const outcome = await reversals.reverse(appId, {
        conversionId: requiredField(req.conversionId, 'conversionId'),
        purchaseId: req.purchaseId || null,
        reason,
        amount: req.amount ?? null,
        note: req.note ?? null,
        operationKey: req.operationKey,
      });
      const summary = (await campaigns.summaries(appId, [outcome.conversion.campaignId])).get(outcome.conversion.campaignId);
      return {
        reversal: reversalMessage(outcome.reversal),
        conversion: conversionMessage(outcome.conversion, summary),
        rewards: outcome.rewards,
        created: outcome.created,
      };
    },

    async listReversals(req, ctx) {
      const page = await stored.page(tenantOf(ctx), requiredField(req.conversionId, 'conversionId'), pageFromRequest(req.page));
      return { reversals: page.items.map(reversalMessage), page: pageReply(page) };
    },
  };
}
