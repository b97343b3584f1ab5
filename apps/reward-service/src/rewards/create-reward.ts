import { DEFAULT_CODE_VALIDITY_DAYS, DEFAULT_CURRENCY, isCurrencyCode } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';
import { newId } from '@ris/mongo';
import { beginCreation, finishCreation, finishMove, markDone } from '../moves/move-reward';
import type { FulfillmentTypeName, RewardDoc, RewardSideName } from './reward.model';
import { rewardsMoved } from './reward-metrics';
import type { RewardStore } from './reward-store';

export interface CreateRewardInput {
  conversionId: string;
  side: RewardSideName;
  level: number;
  userId: string;
  campaignId: string;
  referralId: string;
  amount: number;
  /** ISO 4217 code of amount (the campaign's); absent or empty: USD. */
  currency?: string;
  fulfillmentType: FulfillmentTypeName;
  /** Held PENDING (flagged or unscored conversion) instead of APPROVED. */
  hold: boolean;
  maxRewardsPerUser: number | null;
  codeValidityDays: number;
}

export type CreateRewardResult = { reward: RewardDoc; created: boolean; capped: false } | { reward: null; created: false; capped: true };


function check(input: CreateRewardInput): void {
  if (!Number.isFinite(input.amount) || input.amount < 0) throw invalid('amount must be a non-negative number');
  if (input.currency && !isCurrencyCode(input.currency)) throw invalid('currency must be an ISO 4217 code');
  if (!Number.isInteger(input.level) || input.level < 1) throw invalid('level must be a positive integer');
  if (input.maxRewardsPerUser !== null && (!Number.isInteger(input.maxRewardsPerUser) || input.maxRewardsPerUser < 1)) {
    throw invalid('maxRewardsPerUser must be a positive integer');
  }
}

/**
 * The reward a conversion earns one user, created once: the unique index on
 * (conversion, side, level) makes a retried call return the first reward.
 * Its totals and events are journaled, before the insert, as a move out of
 * NEW (beginCreation), so neither a retry nor the recovery pass writes them
 * twice, and a process that died between the reward and them loses none.
 */
export async function createReward(store: RewardStore, appId: string, input: CreateRewardInput): Promise<CreateRewardResult> {
  check(input);
  const key = { conversionId: input.conversionId, side: input.side, level: input.level };
  const rewardId = newId('rwd');
  const status = input.hold ? 'PENDING' : 'APPROVED';
  // The look for an earlier call's reward and the journal of this one side by side (one round trip, not two):
  // journaled before the place is taken, so a call that dies before its insert gives the place back (finishMove).
  const [existing, creation] = await Promise.all([store.rewards.earnedFor(appId, key), beginCreation(store, appId, rewardId, status)]);
  if (existing) {
    // A retry: this call's journal is for a reward that will never exist.
    if (creation) await markDone(store, creation);
    return replayed(store, existing);
  }
  const capped = input.side === 'REFERRER' && input.maxRewardsPerUser !== null;
  if (capped && !(await store.slots.reserve(appId, input.campaignId, input.userId, input.maxRewardsPerUser!, rewardId))) {
    if (creation) await markDone(store, creation);
    return { reward: null, created: false, capped: true };
  }
  const now = new Date();
  const { reward, created } = await store.rewards.insertEarned({
    _id: rewardId,
    appId,
    ...key,
    userId: input.userId,
    campaignId: input.campaignId,
    referralId: input.referralId,
    amount: input.amount,
    // A referral service one release behind names none: its campaigns are USD.
    currency: input.currency || DEFAULT_CURRENCY,
    fulfillmentType: input.fulfillmentType,
    status,
    expiresAt: null,
    claimedAt: null,
    redeemedAt: null,
    approvedAt: input.hold ? null : now,
    cancelledAt: null,
    codeValidityDays: input.codeValidityDays > 0 ? input.codeValidityDays : DEFAULT_CODE_VALIDITY_DAYS,
    createdAt: now,
    updatedAt: now,
  });
  if (!created) {
    // A concurrent call for the same conversion won; give its place back.
    if (capped) await store.slots.release(appId, rewardId);
    if (creation) await markDone(store, creation); // this reward id will never exist
    return replayed(store, reward);
  }
  rewardsMoved.inc({ status });
  if (creation) await finishMove(store, creation, reward);
  return { reward, created: true, capped: false };
}

/** The first call's reward; its totals and events too, if that call died before writing them. */
async function replayed(store: RewardStore, reward: RewardDoc): Promise<CreateRewardResult> {
  await finishCreation(store, reward);
  return { reward, created: false, capped: false };
}
