import { Counter } from 'prom-client';
import { crashPoint } from '@ris/config';
import type { DomainEvent } from '@ris/events';
import { FulfillmentType, type Reward, type RewardService, RewardSide, RewardStatus, enumName, enumValue, type ServiceCalls } from '@ris/contracts';
import type { OnceMarkers } from '@ris/mongo';
import type { CampaignDoc } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { ReferralCountersRepository } from '../referrals/referral-counters.repository';
import type { Participants } from '../participants/participants';
import type { CampaignStats } from '../stats/campaign-stats';
import { conversionCreated, conversionFlagged } from './conversion-events';
import { countedAt } from './conversion-status';
import type { ConversionDoc } from './conversion.model';
import type { ConversionRepository, RecordSelection } from './conversion.repository';
import { planRewards, type RewardGrant } from './reward-plan';

/** Business counter of the referral service (per process; sum over replicas). */
const conversionsRecorded = new Counter({ name: 'ris_conversions_total', help: 'Conversions whose rewards were issued (each level of a multi-level attribution counts)' });

export interface ConversionReward {
  rewardId: string;
  userId: string;
  side: 'REFERRER' | 'REFEREE';
  level: number;
  amount: number;
  status: string;
}

export interface SettledConversion {
  records: ConversionDoc[];
  /** Rewards asked for by this call (empty when they had been issued before). */
  rewards: ConversionReward[];
}

/** A reward as a sale's answer lists it. */
export const rewardView = (reward: Reward): ConversionReward => ({
  rewardId: reward.id,
  userId: reward.userId,
  side: enumName(RewardSide, reward.side) as ConversionReward['side'],
  level: reward.level,
  amount: reward.amount,
  status: enumName(RewardStatus, reward.status) ?? 'PENDING',
});

/** Rewards are held while the conversion is flagged or not yet scored (its later purchases' too). */
export const shouldHold = (root: Pick<ConversionDoc, 'status' | 'fraudCheck'>) => root.status !== 'CONVERTED' || root.fraudCheck !== 'DONE';

/**
 * Brings a conversion's rewards in line with its records; safe to run any
 * number of times, from any replica, in any order with the changes it
 * follows:
 *
 * 1. Issue: ask the reward service for each planned reward (idempotent by
 *    conversion + side + level), then record the amounts and write the
 *    conversion events, once per record (conditional on rewardsIssuedAt).
 * 2. Reconcile: after a score or a review changed the records, approve the
 *    held rewards, or cancel them after a rejection; then mark the state
 *    version settled. A change that lands meanwhile bumps the version, so
 *    the mark does not apply and the recovery pass settles again.
 */
export class ConversionRewards {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly counters: ReferralCountersRepository,
    private readonly campaigns: Campaigns,
    private readonly stats: CampaignStats,
    private readonly once: OnceMarkers,
    private readonly rewards: ServiceCalls<typeof RewardService>,
    private readonly participants: Participants,
  ) {}

  /**
   * `answerIssued`: the rewards an earlier call issued are read back and
   * answered (a retry of the same request answers what its first try did);
   * otherwise a settle after the issue answers only what it moved.
   */
  async settle(
    appId: string,
    conversionId: string,
    known: { campaign?: CampaignDoc; records?: ConversionDoc[]; answerIssued?: boolean } = {},
  ): Promise<SettledConversion> {
    let records = known.records ?? (await this.conversions.recordsOf(appId, conversionId));
    const root = records.find((r) => r.level === 1);
    if (!root || root.convertedAt === null) return { records, rewards: [] };

    let rewards: ConversionReward[] = [];
    let reconcile = true;
    if (root.rewardsIssuedAt === null) {
      const campaign = known.campaign ?? (await this.campaigns.get(appId, root.campaignId));
      const hold = shouldHold(root);
      const grants = root.review === 'REJECTED' ? [] : planRewards(campaign, records, root.amount);
      rewards = await Promise.all(grants.map((grant) => this.issue(appId, root, campaign, grant, hold)));
      // A retry issues with today's hold but gets back, as they are, the rewards
      // an earlier attempt made: one made while the conversion was held is
      // still PENDING, and only reconciling approves it.
      reconcile = hold || rewards.some((r) => r.status === 'PENDING');
      records = await this.recordIssued(appId, records, rewards, !reconcile);
    } else if (known.answerIssued) {
      rewards = (await this.rewards.listConversionRewards({ appId, conversionId: root.conversionId })).rewards.map(rewardView);
    }
    if (reconcile) rewards = await this.reconcile(appId, root, rewards);
    return { records, rewards };
  }

  /**
   * Asks the reward service for one planned reward of the conversion, or of
   * one of its later purchases (`purchaseId`): idempotent by conversion,
   * purchase, side and level. `hold` keeps it PENDING for the review; the
   * campaign's holdDays keep a clean one PENDING until its holding period
   * ends. maxRewardsPerReferrer caps the conversions' referrer rewards only:
   * it limits how many referees earn a referrer rewards, and a referee's
   * later purchases are not more referees, so they are never capped
   * (docs/product-decisions.md §4.17).
   */
  async issue(appId: string, root: ConversionDoc, campaign: CampaignDoc, grant: RewardGrant, hold: boolean, purchaseId?: string): Promise<ConversionReward> {
    const underCap = grant.side === 'REFERRER' && purchaseId === undefined;
    const res = await this.rewards.createReward({
      appId,
      conversionId: root.conversionId,
      purchaseId,
      side: enumValue(RewardSide, grant.side),
      level: grant.level,
      userId: grant.userId,
      campaignId: root.campaignId,
      referralId: grant.referralId,
      amount: grant.amount,
      currency: grant.currency,
      fulfillmentType: enumValue(FulfillmentType, grant.fulfillmentType),
      hold,
      holdDays: campaign.holdDays,
      shareOfSale: grant.shareOfSale,
      maxRewardsPerUser: underCap ? (campaign.maxRewardsPerReferrer ?? undefined) : undefined,
      codeValidityDays: campaign.rewardCodeValidityDays,
    });
    if (!res.reward) {
      // maxRewardsPerReferrer reached: this referrer earns nothing here.
      return { rewardId: '', userId: grant.userId, side: grant.side, level: grant.level, amount: 0, status: 'CAPPED' };
    }
    return rewardView(res.reward);
  }

  /**
   * Counts the record (see countIssued), then marks its rewards issued with
   * their amounts and the conversion events: once per record.
   */
  private async recordIssued(appId: string, records: ConversionDoc[], rewards: ConversionReward[], settled: boolean): Promise<ConversionDoc[]> {
    const now = new Date();
    const referrerAmount = (level: number) => rewards.find((r) => r.side === 'REFERRER' && r.level === level)?.amount ?? 0;
    const refereeAmount = rewards.find((r) => r.side === 'REFEREE')?.amount ?? 0;
    const value = rewards.reduce((sum, r) => sum + r.amount, 0);
    return Promise.all(
      records.map(async (record) => {
        const rewardAmount = referrerAmount(record.level);
        await this.countIssued(appId, record, rewardAmount, value, record.level === 1 ? refereeAmount : 0);
        const set = {
          rewardAmount,
          rewardsIssuedAt: now,
          ...(record.level === 1 ? { refereeRewardAmount: refereeAmount } : {}),
          ...(record.level === 1 && settled ? { rewardsSettled: true } : {}),
        };
        // The events go in the same update as the amounts (see issueRecord).
        const updated = await this.issueRecord(appId, record, set, (after) =>
          after.status === 'FLAGGED' ? [conversionCreated(after), conversionFlagged(after)] : [conversionCreated(after)],
        );
        return updated ?? (await this.conversions.findById(appId, record._id)) ?? record;
      }),
    );
  }

  /**
   * The counters of an issued record, exactly once (a marker per record:
   * two settles of one conversion may race, a request and the recovery
   * pass, and a retry may finish what a crashed try left). The level-1
   * record counts the conversion itself: the referral's conversion and
   * reward totals in one write, the campaign's conversions, completed
   * referrals (the referral's first conversion, by its own marker) and
   * reward value (every reward of the conversion, whichever try made it)
   * in one more; a record above counts its referrer's reward (its
   * conversion was counted when the record was made). Counted before the
   * record is marked issued, so that a crash in between leaves the mark to
   * the next settle and the count is not lost.
   */
  private async countIssued(appId: string, record: ConversionDoc, rewardAmount: number, conversionValue: number, refereeRewardAmount: number): Promise<void> {
    const referral = { _id: record.referralId, campaignId: record.campaignId, referrerId: record.referrerId };
    const people = { ...record, rewardAmount, refereeRewardAmount, at: countedAt(record) };
    if (record.level !== 1) {
      if (rewardAmount > 0 && (await this.once.first(appId, `rewards-counted:${record._id}`))) {
        await Promise.all([this.counters.add(appId, referral, { rewardAmount }), this.participants.counted(appId, people, 1)]);
      }
      return;
    }
    if (!(await this.once.first(appId, `rewards-counted:${record._id}`))) return;
    await Promise.all([
      this.participants.counted(appId, people, 1),
      this.counters.add(appId, referral, { 'conversions.L1': 1, ...(rewardAmount > 0 ? { rewardAmount } : {}) }),
      this.once
        .first(appId, `referral-completed:${record.referralId}`)
        .then((completes) =>
          this.stats.count(
            appId,
            record.campaignId,
            { totalConversions: 1, ...(completes ? { completedReferrals: 1 } : {}), ...(conversionValue > 0 ? { totalRewardValue: conversionValue } : {}) },
            countedAt(record),
          ),
        ),
    ]);
  }

  /**
   * Takes a rejected record out of the counters countIssued put it in,
   * exactly once (a marker per record), and only if it was counted (a
   * rejection that lands before the issue is counted and taken out by the
   * settle that issues). Level 1: the referral's conversion and its reward,
   * the campaign's conversion at its time, and its completed referral when
   * the referral has no other counted conversion (then a later conversion
   * completes it again); above: the referrer's reward. The campaign's
   * reward value follows the cancelled rewards (reconcile).
   */
  private async uncountRejected(appId: string, record: ConversionDoc): Promise<void> {
    if (!(await this.once.get(appId, `rewards-counted:${record._id}`))) return;
    if (!(await this.once.first(appId, `rejection-uncounted:${record._id}`))) return;
    const referral = { _id: record.referralId, campaignId: record.campaignId, referrerId: record.referrerId };
    const rewardAmount: Record<string, number> = record.rewardAmount > 0 ? { rewardAmount: -record.rewardAmount } : {};
    const people = { ...record, at: countedAt(record) };
    if (record.level !== 1) {
      if (record.rewardAmount > 0) await Promise.all([this.counters.add(appId, referral, rewardAmount), this.participants.counted(appId, people, -1)]);
      return;
    }
    const uncompletes = !(await this.conversions.hasOtherCounted(appId, record.referralId, record._id));
    await Promise.all([
      this.participants.counted(appId, people, -1),
      this.counters.add(appId, referral, { 'conversions.L1': -1, ...rewardAmount }),
      this.stats.count(appId, record.campaignId, { totalConversions: -1, ...(uncompletes ? { completedReferrals: -1 } : {}) }, countedAt(record)),
    ]);
    if (uncompletes) await this.once.forget(appId, `referral-completed:${record.referralId}`);
  }

  /**
   * Marks a record's rewards issued, once (rewardsIssuedAt was null), with
   * its events in the same update. The events describe the record as the
   * update leaves it, so the update applies only to the state version they
   * were built from; a score or review that lands in between is read and
   * the events built again. Null when the rewards were issued already.
   */
  private async issueRecord(
    appId: string,
    record: ConversionDoc,
    set: Partial<ConversionDoc>,
    eventsOf: (after: ConversionDoc) => DomainEvent[],
  ): Promise<ConversionDoc | null> {
    return this.conversions.serially(appId, record.conversionId, async () => {
      let current: ConversionDoc | null = record;
      while (current && current.rewardsIssuedAt === null) {
        const carried = this.conversions.events.carry(eventsOf({ ...current, ...set }));
        const updated = await this.conversions.markIssued(appId, current, set, carried);
        if (updated) {
          crashPoint('conversion.created');
          carried.written(updated);
          conversionsRecorded.inc();
          return updated;
        }
        current = await this.conversions.findById(appId, record._id);
      }
      return null;
    });
  }

  private async reconcile(appId: string, root: ConversionDoc, rewards: ConversionReward[]): Promise<ConversionReward[]> {
    const fresh = await this.conversions.findById(appId, root._id);
    if (!fresh) return rewards;
    let moved: Reward[] = [];
    if (fresh.review === 'REJECTED') {
      moved = (await this.rewards.cancelConversionRewards({ appId, conversionId: fresh.conversionId })).rewards;
      const cancelledValue = moved.reduce((sum, r) => sum + r.amount, 0);
      if (cancelledValue > 0) await this.stats.count(appId, fresh.campaignId, { totalRewardValue: -cancelledValue }, countedAt(fresh));
      await Promise.all((await this.conversions.recordsOf(appId, fresh.conversionId)).map((record) => this.uncountRejected(appId, record)));
    } else if (!shouldHold(fresh)) {
      moved = (await this.rewards.approveConversionRewards({ appId, conversionId: fresh.conversionId })).rewards;
    }
    await this.conversions.serially(appId, fresh.conversionId, () => this.conversions.markSettled(appId, fresh.conversionId, fresh.stateVersion));
    const byId = new Map(moved.map((r) => [r.id, rewardView(r)]));
    return rewards.map((r) => byId.get(r.rewardId) ?? r);
  }

  /**
   * Records a change the rewards must follow (a score, a review decision)
   * on the selected records of the conversion, and marks them unsettled.
   * With `announce`, each record's change carries the events announce()
   * gives for the record as changed (one update per record, applied only
   * to the version the events were built from). Returns how many records
   * changed.
   */
  async changeState(
    appId: string,
    conversionId: string,
    selection: RecordSelection,
    set: Partial<ConversionDoc>,
    announce?: (after: ConversionDoc) => DomainEvent[],
  ): Promise<number> {
    return this.conversions.serially(appId, conversionId, async () => {
      if (!announce) return this.conversions.changeRecords(appId, conversionId, selection, set);
      let changed = 0;
      for (let record of await this.conversions.selectedRecords(appId, conversionId, selection)) {
        for (;;) {
          const after = { ...record, ...set, stateVersion: record.stateVersion + 1, rewardsSettled: false };
          const carried = this.conversions.events.carry(announce(after));
          const updated = await this.conversions.changeRecord(appId, record, selection, set, carried);
          if (updated) {
            changed += 1;
            carried.written(updated);
            break;
          }
          // Changed meanwhile (another replica): read it again; no longer selected, it is done.
          const fresh = await this.conversions.selectedRecord(appId, record._id, selection);
          if (!fresh) break;
          record = fresh;
        }
      }
      return changed;
    });
  }
}
