import type { ServiceImpl } from '@connectrpc/connect';
import type { ApproveConversionRewardRequest, ReferralService } from '@ris/contracts';
import { requiredField, tenantOf } from '@ris/rpc';
import type { Decider, RewardDecisions } from './reward-decisions';

/** The decider of an approve or cancel request (the same fields in both). */
const deciderOf = (req: Omit<ApproveConversionRewardRequest, '$typeName'>): Decider => ({
  note: req.note?.trim() || null,
  operationKey: req.operationKey,
  by: req.decidedBy?.operatorId ? { operatorId: req.decidedBy.operatorId, email: req.decidedBy.email } : null,
});

type DecisionCalls = Pick<ServiceImpl<typeof ReferralService>, 'approveConversionReward' | 'cancelConversionReward'>;

/** An operator's reward decisions at the edge. */
export function rewardDecisionCalls(decisions: RewardDecisions): DecisionCalls {
  return {
    async approveConversionReward(req, ctx) {
      await decisions.approve(tenantOf(ctx), requiredField(req.rewardId, 'rewardId'), deciderOf(req));
      return {};
    },
    async cancelConversionReward(req, ctx) {
      await decisions.cancel(tenantOf(ctx), requiredField(req.rewardId, 'rewardId'), deciderOf(req));
      return {};
    },
  };
}
