import { DEFAULT_CURRENCY } from '@ris/contracts';
import { invalid } from '@ris/domain-errors';
import { moveRewardTo } from '../moves/move-reward';
import type { RewardDoc, RewardStatusName } from '../rewards/reward.model';
import { rewardReversed } from '../rewards/reward-events';
import type { RewardStore } from '../rewards/reward-store';
import { reductionIncrements } from '../totals/reward-totals';
import { reversalStep, valueToKeep, type ReversalStep, type SaleReversal } from './reversal-plan';
import type { RewardReversalDoc } from './reward-reversal.model';

/** A reversal of one sale, as the referral service asks for it. */
export interface ReverseRewardsInput extends SaleReversal {
  conversionId: string;
  /** null: the conversion's own sale. */
  purchaseId: string | null;
  reversalId: string;
  reason: string;
  note: string | null;
}

/** What a reversal did to one reward, and the reward after. */
export interface RewardReversalResult {
  reward: RewardDoc;
  reversal: RewardReversalDoc;
}

const REASONS = new Set(['REFUND', 'CHARGEBACK', 'CANCELLATION', 'OTHER']);

// A reward changes a handful of times in its life; more tries than this is a bug, not contention.
const MAX_TRIES = 20;

function check(input: ReverseRewardsInput): void {
  if (!input.reversalId) throw invalid('reversalId is required');
  if (!REASONS.has(input.reason)) throw invalid('reason must be REFUND, CHARGEBACK, CANCELLATION or OTHER');
  if (!Number.isFinite(input.remainingShare) || input.remainingShare < 0 || input.remainingShare > 1) throw invalid('remainingShare must be from 0 to 1');
}

/**
 * Applies a reversal of one sale to each of its rewards (product decisions
 * §3.10), each at most once: the intent is journaled first under
 * `${reversalId}:${rewardId}`, then applied, then marked done with its
 * event, every step safe to repeat, so a retry or the recovery pass
 * finishes what a dead process left. Rewards answered in side and level
 * order.
 */
export async function reverseRewards(store: RewardStore, appId: string, input: ReverseRewardsInput): Promise<RewardReversalResult[]> {
  check(input);
  const rewards = await store.rewards.ofSale(appId, input.conversionId, input.purchaseId);
  const results: RewardReversalResult[] = [];
  // One after the other: a sale has a few rewards, and each result is read back in order.
  for (const reward of rewards) {
    const intent = await store.reversals.begin(appId, {
      _id: `${input.reversalId}:${reward._id}`,
      reversalId: input.reversalId,
      rewardId: reward._id,
      userId: reward.userId,
      campaignId: reward.campaignId,
      conversionId: reward.conversionId,
      purchaseId: reward.purchaseId ?? null,
      side: reward.side,
      level: reward.level,
      currency: reward.currency ?? DEFAULT_CURRENCY,
      reason: input.reason,
      note: input.note,
      keep: valueToKeep(reward, input),
      effect: null,
      from: 0,
      to: 0,
      clawback: 0,
      createdAt: new Date(),
      done: false,
    });
    results.push(await finishReversal(store, intent));
  }
  return results;
}

/** A step as applied: with the status the reward had then (whose totals a reduction moves). */
type AppliedStep = Omit<ReversalStep, 'amount'> & { status: RewardStatusName };

/** What the reward shows this reversal did, if it was applied already (before a crash, or by another finisher). */
function appliedStep(reward: RewardDoc, reversalId: string): AppliedStep | null {
  const entry = reward.reversals?.find((e) => e.reversalId === reversalId);
  if (entry) return { effect: entry.effect, from: entry.from, to: entry.to, clawback: entry.clawback, status: entry.status ?? reward.status };
  if (reward.status === 'CANCELLED' && reward.cancelledByReversal === reversalId) return { effect: 'CANCELLED', from: reward.amount, to: 0, clawback: 0, status: 'CANCELLED' };
  return null;
}

/**
 * Applies a journaled reversal to its reward, as the reward is now: a
 * concurrent claim, redemption, approval or cancellation is read and the
 * step planned again (a reward redeemed meanwhile is clawed back instead
 * of cancelled). Safe to run twice at once: each change is conditional on
 * the state it was planned from, and on the reversal not being on the
 * reward yet.
 */
export async function finishReversal(store: RewardStore, intent: RewardReversalDoc): Promise<RewardReversalResult> {
  const { appId, rewardId } = intent;
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const reward = await store.rewards.findById(appId, rewardId);
    if (!reward) throw new Error(`reward ${rewardId} of reversal ${intent.reversalId} is gone`);
    if (intent.done) return { reward, reversal: intent };
    const applied = appliedStep(reward, intent.reversalId);
    if (applied) return finished(store, intent, reward, applied);
    const step = reversalStep(reward, intent.keep);
    const at = new Date();
    if (step.effect === 'UNCHANGED') return finished(store, intent, reward, { ...step, status: reward.status });
    if (step.effect === 'CANCELLED') {
      const fields = { cancelledAt: at, cancellationNote: intent.note, reversalReason: intent.reason, cancelledByReversal: intent.reversalId, reversedAmount: reward.earnedAmount ?? reward.amount };
      // A move journaled by someone else (a redemption, say) is finished first; then the loop reads where it led.
      await moveRewardTo(store, reward, 'CANCELLED', fields);
      continue;
    }
    const entry = { reversalId: intent.reversalId, effect: step.effect, from: step.from, to: step.to, clawback: step.clawback, status: reward.status, at };
    const changed = await store.rewards.recordReversal(appId, reward, entry, {
      // A paid reward keeps its amount (it was paid); what it is no longer worth is owed.
      amount: step.amount,
      taken: step.from - step.to,
      reason: intent.reason,
      clawback: step.clawback,
    });
    if (changed) return finished(store, intent, changed, { ...step, status: reward.status });
  }
  throw new Error(`reversal ${intent._id} could not be applied: the reward kept changing`);
}

/** Counts a reduction's totals once, then marks the reversal done with its event (once). */
async function finished(store: RewardStore, intent: RewardReversalDoc, reward: RewardDoc, step: AppliedStep): Promise<RewardReversalResult> {
  if (step.effect === 'REDUCED' && (await store.reversals.countsTotals(intent))) {
    await store.totals.add(intent.appId, reward.campaignId, reductionIncrements(reward, step.status, step.from - step.to));
  }
  const events =
    step.effect === 'REDUCED' || step.effect === 'CLAWBACK'
      ? [rewardReversed(reward, { reversalId: intent.reversalId, effect: step.effect, reason: intent.reason, from: step.from, to: step.to, clawback: step.clawback, at: new Date() })]
      : [];
  const outcome = { effect: step.effect, from: step.from, to: step.to, clawback: step.clawback };
  const done = (await store.reversals.done(intent, outcome, events)) ?? (await store.reversals.findById(intent.appId, intent._id)) ?? { ...intent, ...outcome, done: true };
  return { reward, reversal: done };
}

/**
 * Finishes reversals a dead process left half applied, oldest first; one
 * that fails is reported and the rest still go. Returns how many were looked at.
 */
export async function finishOpenReversals(
  store: RewardStore,
  olderThanMs: number,
  onError: (err: unknown, reversal: RewardReversalDoc) => void,
  batchSize = 100,
): Promise<number> {
  const open = await store.reversals.open(olderThanMs, batchSize);
  for (const reversal of open) await finishReversal(store, reversal).catch((err: unknown) => onError(err, reversal));
  return open.length;
}
