import { refused } from '@ris/domain-errors';
import type { RewardDoc } from '../rewards/reward.model';
import { rewardClaimed } from '../rewards/reward-events';
import { rewardOf } from '../rewards/reward-reads';
import type { RewardStore } from '../rewards/reward-store';
import type { RewardCodeDoc } from './reward-code.model';
import { generateRewardCode } from './reward-code';

const CODE_TYPES = new Set(['DISCOUNT_CODE', 'COUPON_CODE']);
const CODE_ATTEMPTS = 5;
const DAY_MS = 86_400_000;

const notClaimable = (reward: RewardDoc) =>
  refused(
    'REWARD_NOT_CLAIMABLE',
    CODE_TYPES.has(reward.fulfillmentType)
      ? `Reward ${reward._id} is ${reward.status}; only an APPROVED reward can be claimed.`
      : `Reward ${reward._id} is fulfilled as ${reward.fulfillmentType}; only DISCOUNT_CODE and COUPON_CODE rewards have a code to claim.`,
    { rewardId: reward._id, status: reward.status, fulfillmentType: reward.fulfillmentType },
  );

/**
 * Issues the reward's code, once. The code document's _id is the reward
 * id, so of concurrent claims exactly one insert succeeds; the others (and
 * every later claim) get that code back. The reward then carries a copy.
 */
export async function claimReward(store: RewardStore, appId: string, rewardId: string): Promise<RewardDoc> {
  const reward = await rewardOf(store, appId, rewardId);
  const issued = await store.codes.ofReward(appId, rewardId);
  // Claiming again returns the code already issued, while the reward is APPROVED or PAID.
  if (issued && (reward.status === 'APPROVED' || reward.status === 'PAID')) return withCode(store, reward, issued);
  if (reward.status !== 'APPROVED' || !CODE_TYPES.has(reward.fulfillmentType)) throw notClaimable(reward);

  for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
    const claimedAt = new Date();
    const candidate = {
      _id: rewardId,
      code: generateRewardCode(),
      claimedAt,
      expiresAt: new Date(claimedAt.getTime() + reward.codeValidityDays * DAY_MS),
    };
    // reward.claimed is stored with the code (the claim's one decisive insert) and published right after it.
    const claimed = rewardClaimed({ ...reward, discountCode: candidate.code, claimedAt: candidate.claimedAt, expiresAt: candidate.expiresAt });
    // null: the code was taken by another reward (draw again); else this claim's code, or the one of a claim that won.
    const result = await store.codes.issue(appId, candidate, [claimed]);
    if (result) return withCode(store, reward, result.code);
  }
  throw new Error('could not draw a free reward code');
}

/** The reward with its code fields (written onto it if a claim stopped before). */
async function withCode(store: RewardStore, reward: RewardDoc, code: RewardCodeDoc): Promise<RewardDoc> {
  if (reward.discountCode === code.code) return reward;
  const fields = { discountCode: code.code, claimedAt: code.claimedAt, expiresAt: code.expiresAt };
  const updated = await store.rewards.setCode(reward.appId, reward._id, fields);
  return updated ?? { ...reward, ...fields };
}
