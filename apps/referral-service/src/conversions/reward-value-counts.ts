import type { Participants } from '../participants/participants';
import type { ReferralCountersRepository } from '../referrals/referral-counters.repository';
import type { CampaignStats } from '../stats/campaign-stats';
import { countedAt } from './conversion-status';
import type { ConversionRepository } from './conversion.repository';

/** A reward of a sale, as much of it as the figures need to find where it was counted. */
export interface CountedReward {
  conversionId: string;
  campaignId: string;
  referralId: string;
  userId: string;
  side: 'REFERRER' | 'REFEREE';
  level: number;
}

/**
 * Value taken off rewards after they were counted (an operator's
 * cancellation, a reversal's reduction, cancellation or clawback), out of
 * every figure that counted it: the campaign's reward value (at its
 * conversion's time, where it was counted), its referral's and its
 * record's reward, its user's reward value. The caller makes it happen
 * once (a marker per reward or per reversal).
 */
export class RewardValueCounts {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly counters: ReferralCountersRepository,
    private readonly stats: CampaignStats,
    private readonly participants: Participants,
  ) {}

  async taken(appId: string, reward: CountedReward, amount: number): Promise<void> {
    if (amount <= 0) return;
    const records = await this.conversions.recordsOf(appId, reward.conversionId);
    const record = records.find((r) => r.level === (reward.side === 'REFEREE' ? 1 : reward.level));
    if (!record) return;
    const at = countedAt(record);
    await Promise.all([
      this.stats.count(appId, reward.campaignId, { totalRewardValue: -amount }, at),
      reward.side === 'REFERRER' ? this.counters.add(appId, { _id: reward.referralId, campaignId: reward.campaignId, referrerId: reward.userId }, { rewardAmount: -amount }) : undefined,
      this.conversions.serially(appId, record.conversionId, () =>
        this.conversions.lessReward(appId, record._id, reward.side === 'REFEREE' ? 'refereeRewardAmount' : 'rewardAmount', amount),
      ),
      this.participants.rewardCancelled(appId, reward.userId, amount, at),
    ]);
  }
}
