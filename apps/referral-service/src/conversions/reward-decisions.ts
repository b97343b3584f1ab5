import { RewardSide, RewardStatus, enumName, type Reward, type RewardService, type ServiceCalls } from '@ris/contracts';
import { conflict, notFound, refused } from '@ris/domain-errors';
import type { OnceMarkers } from '@ris/mongo';
import type { DeferredFraudCheckRepository } from '../fraud-check/deferred-fraud-check.repository';
import type { FlagResolver } from '../flags/fraud-flag.model';
import type { FraudFlagRepository } from '../flags/fraud-flag.repository';
import type { FraudFlags } from '../flags/fraud-flags';
import type { ConversionRewards } from './conversion-rewards';
import type { ConversionRepository } from './conversion.repository';
import type { RewardValueCounts } from './reward-value-counts';

export interface Decider {
  note: string | null;
  /** From the request's Idempotency-Key (empty without one). */
  operationKey: string;
  /** The operator deciding through the dashboard; null for an API key. */
  by: FlagResolver | null;
}

/**
 * An operator's decisions about one reward (the dashboard's reward actions):
 * approving one held for review, or cancelling one. Both go through this
 * service, which holds the conversion, its flag and the figures that count
 * the reward, and asks the reward service to move it.
 */
export class RewardDecisions {
  constructor(
    private readonly rewards: ServiceCalls<typeof RewardService>,
    private readonly conversions: ConversionRepository,
    private readonly flagRecords: FraudFlagRepository,
    private readonly flags: FraudFlags,
    private readonly conversionRewards: ConversionRewards,
    private readonly deferredChecks: DeferredFraudCheckRepository,
    private readonly values: RewardValueCounts,
    private readonly once: OnceMarkers,
  ) {}

  private async reward(appId: string, rewardId: string): Promise<Reward> {
    const { reward } = await this.rewards.getReward({ appId, rewardId });
    if (!reward) throw notFound('Reward', { rewardId });
    return reward;
  }

  /**
   * A PENDING reward released: held by its conversion's open fraud flag,
   * it is that flag approved (every held reward of the conversion with it,
   * as the review queue does); held because the fraud check could not run,
   * the operator's decision stands for the check. A reward held for any
   * other reason is 422 REWARD_HELD; one that is not PENDING, 409.
   */
  async approve(appId: string, rewardId: string, decider: Decider): Promise<void> {
    const reward = await this.reward(appId, rewardId);
    const status = enumName(RewardStatus, reward.status) ?? 'UNKNOWN';
    if (status !== 'PENDING') {
      throw conflict('INVALID_TRANSITION', `Reward ${rewardId} is ${status}; only a PENDING reward can be approved.`, { rewardId, status });
    }
    const root = await this.conversions.findById(appId, reward.conversionId);
    if (!root) throw notFound('Conversion', { conversionId: reward.conversionId });
    const flag = await this.flagRecords.ofSubject(appId, 'CONVERSION', root.conversionId);
    if (flag?.status === 'OPEN' || (flag && decider.operationKey && root.review === 'APPROVED')) {
      await this.flags.resolve(appId, flag._id, 'APPROVE', decider.note, decider.operationKey, decider.by);
      return;
    }
    if (root.fraudCheck === 'DEFERRED' && root.status === 'CONVERTED') {
      await this.conversionRewards.changeState(appId, root.conversionId, 'scoreDeferred', { fraudCheck: 'DONE', context: null, review: 'APPROVED' });
      await this.conversionRewards.settle(appId, root.conversionId);
      await this.deferredChecks.done(appId, root.conversionId);
      return;
    }
    throw refused('REWARD_HELD', `Reward ${rewardId} is held for another reason than a fraud review; it cannot be approved by hand.`, { rewardId });
  }

  /**
   * A reward cancelled with the operator's note (PENDING or APPROVED; its
   * code stops validating), and taken out of what counted it, exactly once
   * (a marker per reward): the campaign's reward value, its referral's and
   * its record's reward, its user's reward value.
   */
  async cancel(appId: string, rewardId: string, decider: Decider): Promise<void> {
    const { reward } = await this.rewards.cancelReward({ appId, rewardId, note: decider.note ?? undefined, operationKey: decider.operationKey });
    if (!reward || !(await this.once.first(appId, `reward-cancel-counted:${rewardId}`))) return;
    const side = enumName(RewardSide, reward.side) === 'REFEREE' ? 'REFEREE' : 'REFERRER';
    await this.values.taken(appId, { ...reward, side }, reward.amount);
  }
}
