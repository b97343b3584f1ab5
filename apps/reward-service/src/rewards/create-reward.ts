import { now as clock } from '@ris/config';
import { DEFAULT_CODE_VALIDITY_DAYS, DEFAULT_CURRENCY, MAX_HOLD_DAYS, isCurrencyCode } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';
import { newId } from '@ris/mongo';
import { beginCreation, finishCreation, finishMove, markDone } from '../moves/move-reward';
import type { FulfillmentTypeName, RewardDoc, RewardSideName } from './reward.model';
import { rewardsMoved } from './reward-metrics';
import type { RewardStore } from './reward-store';

export interface CreateRewardInput {
  conversionId: string;
  /** The later purchase of the conversion that earns it; null: the conversion itself. */
  purchaseId: string | null;
  side: RewardSideName;
  level: number;
  userId: string;
  campaignId: string;
  referralId: string;
  amount: number;
  /** ISO 4217 code of amount (the campaign's); absent or empty: USD. */
  currency?: string;
  fulfillmentType: FulfillmentTypeName;
  /** Held PENDING by a review (flagged or unscored conversion) until ApproveConversionRewards. */
  hold: boolean;
  /** The campaign's holding period: PENDING until this many days from now, then APPROVED by the release pass. */
  holdDays: number;
  /** A share of the sale: a partial reversal reduces it in proportion. */
  shareOfSale: boolean;
  maxRewardsPerUser: number | null;
  codeValidityDays: number;
}

export type CreateRewardResult = { reward: RewardDoc; created: boolean; capped: false } | { reward: null; created: false; capped: true };


function check(input: CreateRewardInput): void {
  if (!Number.isFinite(input.amount) || input.amount < 0) throw invalid('amount must be a non-negative number');
  if (input.currency && !isCurrencyCode(input.currency)) throw invalid('currency must be an ISO 4217 code');
  if (!Number.isInteger(input.level) || input.level < 1) throw invalid('level must be a positive integer');
  if (!Number.isInteger(input.holdDays) || input.holdDays < 0 || input.holdDays > MAX_HOLD_DAYS) throw invalid(`holdDays must be an integer from 0 to ${MAX_HOLD_DAYS}`);
  if (input.maxRewardsPerUser !== null && (!Number.isInteger(input.maxRewardsPerUser) || input.maxRewardsPerUser < 1)) {
    throw invalid('maxRewardsPerUser must be a positive integer');
  }
}

const DAY_MS = 86_400_000;

/**
 * The reward a sale (a conversion, or a later purchase of it) earns one
 * user, created once: the unique index on (conversion, purchase, side,
 * level) makes a retried call return the first reward. It is APPROVED at
 * once, or PENDING while a review holds it (`hold`) or for the campaign's
 * holding period (availableAt; the release pass approves it then).
 * Its totals and events are journaled, before the insert, as a move out of
 * NEW (beginCreation), so neither a retry nor the recovery pass writes them
 * twice, and a process that died between the reward and them loses none.
 */
export async function createReward(store: RewardStore, appId: string, input: CreateRewardInput): Promise<CreateRewardResult> {
  check(input);
  const key = { conversionId: input.conversionId, purchaseId: input.purchaseId, side: input.side, level: input.level };
  const rewardId = newId('rwd');
  const status = input.hold || input.holdDays > 0 ? 'PENDING' : 'APPROVED';
  // The look for an earlier call's reward and the journal of this one side by side (one round trip, not two):
  // journaled before the place is taken, so a call that dies before its insert gives the place back (finishMove).
  const [existing, creation] = await Promise.all([store.rewards.earnedFor(appId, key), beginCreation(store, appId, rewardId, status)]);
  if (existing) {
    // A retry: this call's journal is for a reward that will never exist.
    if (creation) await markDone(store, creation);
    return replayed(store, existing);
  }
  // The cap counts rewarded conversions: a purchase's reward takes no place of its own.
  const capped = input.side === 'REFERRER' && input.maxRewardsPerUser !== null && input.purchaseId === null;
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
    earnedAmount: input.amount,
    shareOfSale: input.shareOfSale,
    reversedAmount: 0,
    reversalReason: null,
    availableAt: input.holdDays > 0 ? new Date(clock().getTime() + input.holdDays * DAY_MS) : null,
    reviewHold: input.hold,
    // A referral service one release behind names none: its campaigns are USD.
    currency: input.currency || DEFAULT_CURRENCY,
    fulfillmentType: input.fulfillmentType,
    status,
    expiresAt: null,
    claimedAt: null,
    redeemedAt: null,
    approvedAt: status === 'APPROVED' ? now : null,
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
