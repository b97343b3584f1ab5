import type { RewardDoc } from '../rewards/reward.model';
import { normalizeRewardCode } from './reward-code';
import type { RewardStore } from '../rewards/reward-store';

export type InvalidReason = 'NOT_FOUND' | 'EXPIRED' | 'REDEEMED' | 'CANCELLED' | 'REVERSED' | 'NOT_APPROVED';

export interface CodeValidation {
  valid: boolean;
  code: string;
  /** Only a code of the calling app: another app's code is NOT_FOUND and shows nothing. */
  reward: RewardDoc | null;
  reason: InvalidReason | null;
}

/** GET /rewards/validate: an unknown, expired, redeemed, cancelled or reversed code is valid: false (never an error). */
export async function validateCode(store: RewardStore, appId: string, rawCode: string, now = new Date()): Promise<CodeValidation> {
  const code = normalizeRewardCode(rawCode);
  const issued = await store.codes.byCode(appId, code);
  const found = issued ? await store.rewards.findById(appId, issued._id) : null;
  const reward = found && issued ? { ...found, discountCode: issued.code, claimedAt: issued.claimedAt, expiresAt: issued.expiresAt } : null;
  const invalid = (reason: InvalidReason) => ({ valid: false, code, reward, reason });
  if (!reward) return invalid('NOT_FOUND');
  if (reward.status === 'PAID') return invalid('REDEEMED');
  // Cancelled by a refund or chargeback of its sale: said as such, so a cashier can tell the customer why.
  if (reward.status === 'CANCELLED') return invalid(reward.cancelledByReversal ? 'REVERSED' : 'CANCELLED');
  if (reward.status !== 'APPROVED') return invalid('NOT_APPROVED');
  if (reward.expiresAt && reward.expiresAt.getTime() <= now.getTime()) return invalid('EXPIRED');
  return { valid: true, code, reward, reason: null };
}
