import { create } from '@bufbuild/protobuf';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { PurchaseSchema, type Purchase, type ReferralService } from '@ris/contracts';
import { invalidArgument, messageFields, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import { conversionRewardMessage } from '../conversions/conversions.rpc';
import type { PurchaseList } from './purchase-list';
import type { PurchaseDoc } from './purchase.model';
import type { PurchaseRecorder } from './record-purchase';

const purchaseMessage = (doc: PurchaseDoc): Purchase => create(PurchaseSchema, { ...messageFields(doc), id: doc._id });

type PurchaseCalls = Pick<ServiceImpl<typeof ReferralService>, 'recordPurchase' | 'listPurchases'>;

/** Purchases at the edge: a converted referee's later payment recorded with the rewards it earned; a conversion's purchases listed. */
export function purchaseCalls(recorder: PurchaseRecorder, list: PurchaseList): PurchaseCalls {
  return {
    async recordPurchase(req, ctx) {
      // A purchase is a payment: a percentage of nothing would pay nothing, and a fixed rule would pay for nothing.
      if (!Number.isFinite(req.amount) || req.amount <= 0) throw invalidArgument('amount must be a number more than 0');
      const outcome = await recorder.record(tenantOf(ctx), {
        conversionId: requiredField(req.conversionId, 'conversionId'),
        amount: req.amount,
        currency: req.currency ?? null,
        externalId: req.externalId || null,
        occurredAt: req.occurredAt ? timestampDate(req.occurredAt) : null,
        operationKey: req.operationKey,
      });
      return {
        purchase: purchaseMessage(outcome.purchase),
        // A reward the cap refused has no id (purchases are never capped, but the reward service decides).
        rewards: outcome.rewards.filter((r) => r.rewardId).map(conversionRewardMessage),
        created: outcome.created,
      };
    },

    async listPurchases(req, ctx) {
      const page = await list.list(tenantOf(ctx), requiredField(req.conversionId, 'conversionId'), pageFromRequest(req.page));
      return { purchases: page.items.map(purchaseMessage), page: pageReply(page) };
    },
  };
}
