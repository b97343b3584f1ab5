import type { RewardService, ServiceCalls } from '@ris/contracts';
import { conflict, notFound } from '@ris/domain-errors';
import type { OnceMarkers } from '@ris/mongo';
import type { Campaigns } from '../campaigns/campaigns';
import { rewardView, shouldHold, type ConversionReward, type ConversionRewards } from '../conversions/conversion-rewards';
import { countedAt } from '../conversions/conversion-status';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { ConversionRepository } from '../conversions/conversion.repository';
import { planRewards } from '../conversions/reward-plan';
import type { Participants } from '../participants/participants';
import type { ReferralCountersRepository } from '../referrals/referral-counters.repository';
import type { CampaignStats } from '../stats/campaign-stats';
import type { PurchaseDoc } from './purchase.model';
import type { PurchaseRepository } from './purchase.repository';

export interface IssuedPurchase {
  purchase: PurchaseDoc;
  rewards: ConversionReward[];
}

/**
 * A conversion whose referee's purchases still earn: CONVERTED, or FLAGGED
 * until decided; not rejected (a review's REJECTED is also what a
 * conversion rejected before the status existed carries), nor REVERSED.
 */
export const stillEarns = (root: Pick<ConversionDoc, 'status' | 'review'>) => (root.status === 'CONVERTED' || root.status === 'FLAGGED') && root.review !== 'REJECTED';

/**
 * A purchase's rewards, after the purchase is stored (record-purchase.ts):
 * each step idempotent, so a retry of the request, a replay of its
 * externalId or the recovery pass can run finish() again, from any
 * replica, and the purchase still earns and counts once.
 *
 * 1. Issue: each rule of the campaign as it is now earns again on the
 *    purchase's amount (planRewards, as for the conversion: every level's
 *    referrer, the referee on a double-sided campaign), asked of the reward
 *    service under the purchase's id (idempotent by conversion, purchase,
 *    side and level); held for review while the conversion is.
 * 2. Count, once per purchase (OnceMarkers): the campaign's reward value,
 *    and each reward on its conversion record, its referral and its user.
 * 3. Follow the review: a decision that landed while the rewards were
 *    being made (the flag approved, or rejected) is applied to them too.
 * 4. Mark the purchase issued: the recovery pass stops looking at it.
 */
export class PurchaseRewards {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly conversions: ConversionRepository,
    private readonly campaigns: Campaigns,
    private readonly conversionRewards: ConversionRewards,
    private readonly counters: ReferralCountersRepository,
    private readonly stats: CampaignStats,
    private readonly participants: Participants,
    private readonly once: OnceMarkers,
    private readonly rewards: ServiceCalls<typeof RewardService>,
  ) {}

  /**
   * The conversion's records, if a purchase can be counted on them now:
   * their own rewards must be issued first, because issuing sets each
   * record's reward amount outright (a purchase's added before would be
   * lost). They are within seconds of the conversion (or the recovery pass
   * issues them): CONFLICT, retry shortly.
   */
  async issuedRecords(appId: string, conversionId: string): Promise<{ root: ConversionDoc; records: ConversionDoc[] }> {
    const records = await this.conversions.recordsOf(appId, conversionId);
    const root = records.find((r) => r.level === 1);
    if (!root) throw notFound('Conversion', { conversionId });
    if (records.some((r) => r.rewardsIssuedAt === null)) {
      throw conflict('CONFLICT', `The rewards of conversion ${conversionId} are still being issued; retry shortly.`, { conversionId });
    }
    return { root, records };
  }

  /** Issues, counts and marks the purchase's rewards (see the class); the purchase after, and its rewards. */
  async finish(appId: string, purchase: PurchaseDoc): Promise<IssuedPurchase> {
    const { root, records } = await this.issuedRecords(appId, purchase.conversionId);
    // The campaign's current rules: a purchase earns what the campaign pays now (§4.17), as a conversion does.
    const campaign = await this.campaigns.get(appId, purchase.campaignId);
    const hold = shouldHold(root);
    const grants = stillEarns(root) ? planRewards(campaign, records, purchase.amount) : [];
    const rewards = await Promise.all(grants.map((grant) => this.conversionRewards.issue(appId, root, campaign, grant, hold, purchase._id)));
    await this.count(appId, purchase, root, records, rewards);
    await this.followReview(appId, root, hold);
    const marked = await this.purchases.markIssued(appId, purchase._id, new Date());
    return { purchase: marked ?? (await this.purchases.findById(appId, purchase._id)) ?? purchase, rewards };
  }

  /**
   * The rewards a purchase earned, as the reward service holds them now (a
   * replay's answer), in the order the purchase first answered them: the
   * referrers by level, then the referee (planRewards' order).
   */
  async issuedFor(appId: string, purchase: PurchaseDoc): Promise<ConversionReward[]> {
    const res = await this.rewards.listConversionRewards({ appId, conversionId: purchase.conversionId, purchaseId: purchase._id });
    const rank = (r: ConversionReward) => (r.side === 'REFEREE' ? 1_000 : 0) + r.level;
    return res.rewards.map(rewardView).sort((a, b) => rank(a) - rank(b));
  }

  /**
   * Counts the purchase's rewards where the conversion's are counted,
   * exactly once (a marker per purchase, and per reward): the campaign's
   * reward value (at the conversion's time, where a cancellation of any of
   * the conversion's rewards takes it out), then each reward on its record
   * (added only while the record counts: a rejection applied first leaves
   * the reward out of everything below, as it takes out what the record
   * holds), its referral's reward total (a referrer's) and its user's reward
   * value. A cancelled reward, or the conversion rejected later, takes them
   * out again by the paths that take out the conversion's own.
   */
  private async count(appId: string, purchase: PurchaseDoc, root: ConversionDoc, records: ConversionDoc[], rewards: ConversionReward[]): Promise<void> {
    const value = rewards.reduce((sum, r) => sum + r.amount, 0);
    if (value > 0 && (await this.once.first(appId, `purchase-value-counted:${purchase._id}`))) {
      await this.stats.count(appId, purchase.campaignId, { totalRewardValue: value }, countedAt(root));
    }
    await Promise.all(
      rewards.map(async (reward) => {
        const record = reward.side === 'REFEREE' ? root : records.find((r) => r.level === reward.level);
        if (!record || reward.amount <= 0) return;
        if (!(await this.once.first(appId, `purchase-reward-counted:${purchase._id}:${reward.side}:${reward.level}`))) return;
        const field = reward.side === 'REFEREE' ? 'refereeRewardAmount' : 'rewardAmount';
        const taken = await this.conversions.serially(appId, record.conversionId, () => this.conversions.addPurchaseReward(appId, record._id, field, reward.amount));
        if (!taken) return;
        await Promise.all([
          reward.side === 'REFERRER'
            ? this.counters.add(appId, { _id: record.referralId, campaignId: record.campaignId, referrerId: record.referrerId }, { rewardAmount: reward.amount })
            : undefined,
          this.participants.rewardEarned(appId, reward.userId, reward.amount, purchase.occurredAt),
        ]);
      }),
    );
  }

  /**
   * A review decided while the rewards were asked for may have moved the
   * conversion's rewards before these existed: held ones the approval did
   * not release, or ones the rejection did not cancel. Settling the
   * conversion again moves every reward of it, its purchases' included
   * (idempotent: what was moved already is not moved, nor counted, again).
   */
  private async followReview(appId: string, root: ConversionDoc, hold: boolean): Promise<void> {
    const fresh = await this.conversions.findById(appId, root._id);
    if (fresh && (fresh.review === 'REJECTED' || (hold && !shouldHold(fresh)))) await this.conversionRewards.settle(appId, root.conversionId);
  }
}
