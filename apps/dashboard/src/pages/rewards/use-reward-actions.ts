import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, ok } from '../../api/api-error';
import type { Reward } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';

/** What an operator does to rewards: release one held for review, mark one fulfilled, cancel one. */
export type RewardAction = 'APPROVE' | 'FULFIL' | 'CANCEL';

/** The part of a reward that says which actions apply (payoutId: absent from a gateway of an earlier release). */
type Actionable = Pick<Reward, 'status' | 'fulfillmentType'> & { payoutId?: string | null };

/**
 * Which rewards an action applies to: approving a held one, fulfilling an
 * approved one (not CASH: its payout pays it, 422 REWARD_NOT_REDEEMABLE),
 * cancelling either while no payout holds it (409 REWARD_IN_PAYOUT).
 */
export const ACTION_APPLIES: Record<RewardAction, (r: Actionable) => boolean> = {
  APPROVE: (r) => r.status === 'PENDING',
  FULFIL: (r) => r.status === 'APPROVED' && r.fulfillmentType !== 'CASH',
  CANCEL: (r) => (r.status === 'PENDING' || r.status === 'APPROVED') && !r.payoutId,
};

export const ACTION_WORDS: Record<RewardAction, { verb: string; done: string }> = {
  APPROVE: { verb: 'Approve', done: 'approved' },
  FULFIL: { verb: 'Mark fulfilled', done: 'marked fulfilled' },
  CANCEL: { verb: 'Cancel', done: 'cancelled' },
};

/**
 * One action on one or several rewards, each its own call (the API's
 * approve, redeem and cancel, so every rule and the audit log apply), sent
 * at once; the outcome of each is told, and the lists are read again.
 */
export function useRewardActions() {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ action, rewards, note }: { action: RewardAction; rewards: Array<Pick<Reward, 'id' | 'userId'>>; note: string }) => {
      const body = note.trim() ? { note: note.trim() } : {};
      const one = (r: Pick<Reward, 'id' | 'userId'>) => {
        const path = { params: { path: { rewardId: r.id } } };
        if (action === 'APPROVE') return ok(api.POST('/api/v1/rewards/{rewardId}/approve', { ...path, body }));
        if (action === 'CANCEL') return ok(api.POST('/api/v1/rewards/{rewardId}/cancel', { ...path, body }));
        return ok(api.POST('/api/v1/rewards/redeem', { body: { rewardId: r.id, userId: r.userId } }));
      };
      const results = await Promise.allSettled(rewards.map(one));
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ id: rewards[i]!.id, error: r.reason as unknown }] : []));
      return { done: rewards.length - failed.length, failed, action };
    },
    onSuccess: ({ done, failed, action }) => {
      const { done: verb } = ACTION_WORDS[action];
      if (done > 0) notifications.show({ color: 'green', message: `${done} reward${done === 1 ? '' : 's'} ${verb}.` });
      for (const f of failed) notifications.show({ color: 'red', title: `Reward ${f.id} not ${verb}`, message: errorMessage(f.error), autoClose: 10_000 });
    },
    // Approving one reward approves its conversion's others (its flag), and every action moves the figures.
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['app', appId] }),
  });
}
