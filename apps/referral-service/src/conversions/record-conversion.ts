import { conflict, notFound } from '@ris/domain-errors';
import { newId } from '@ris/mongo';
import type { CampaignDoc } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { DeferredFraudCheckRepository } from '../fraud-check/deferred-fraud-check.repository';
import { conversionScore, type FraudCheck, type FraudVerdict } from '../fraud-check/fraud-check';
import type { FraudFlags } from '../flags/fraud-flags';
import type { Participants } from '../participants/participants';
import type { ReferralCountersRepository } from '../referrals/referral-counters.repository';
import type { ReferralLookup } from '../referrals/referral-lookup';
import type { ClientContextDoc, ReferralDoc } from '../referrals/referral.model';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { ReferralTree } from '../referrals/referral-tree';
import type { ConversionReward, ConversionRewards } from './conversion-rewards';
import { isConverted } from './conversion-status';
import type { ConversionDoc } from './conversion.model';
import type { ConversionRepository } from './conversion.repository';
import { deepestLevel } from './reward-plan';
import { checkSale } from './sale-terms';

export interface ConversionInput {
  referralCode: string;
  refereeId: string;
  amount: number | null;
  /** The currency the caller named for amount (absent or null: none); it must be the campaign's. */
  currency?: string | null;
  metadata: Record<string, unknown> | null;
  context: ClientContextDoc;
  /** From the request's Idempotency-Key (empty without one): the conversion's id derives from it. */
  operationKey: string;
}

export interface ConversionOutcome {
  root: ConversionDoc;
  upline: ConversionDoc[];
  referral: ReferralDoc;
  campaign: CampaignDoc;
  rewards: ConversionReward[];
}

const DAY_MS = 86_400_000;
/**
 * A converted record whose rewards were never issued (the reward service
 * failed the request) is finished by a later request for the same referee
 * and code, or by the recovery pass, once it is this old: younger, it is
 * still in flight and a second request is a second conversion (409).
 */
export const UNFINISHED_AFTER_MS = 10_000;

const alreadyConverted = (record: ConversionDoc) =>
  conflict('ALREADY_CONVERTED', `Referee ${record.refereeId} already converted in this campaign.`, {
    refereeId: record.refereeId,
    campaignId: record.campaignId,
    conversionId: record.conversionId,
    referralCode: record.originalReferralCode,
  });

/**
 * POST /conversions: a referee converts through a code. The referee's
 * level-1 record is claimed (see claim: the unique index decides), so of
 * two conversions of one referee in one campaign exactly one succeeds.
 * Then the records of the referrers above, the fraud flag, and the rewards.
 */
export class ConversionRecorder {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly lookup: ReferralLookup,
    private readonly referrals: ReferralRepository,
    private readonly counters: ReferralCountersRepository,
    private readonly campaigns: Campaigns,
    private readonly tree: ReferralTree,
    private readonly fraud: FraudCheck,
    private readonly deferredChecks: DeferredFraudCheckRepository,
    private readonly flags: FraudFlags,
    private readonly conversionRewards: ConversionRewards,
    private readonly participants: Participants,
  ) {}

  async record(appId: string, input: ConversionInput): Promise<ConversionOutcome> {
    // The code's key (from memory or Redis, mostly) names the referral and its campaign: the
    // referral, the referee's record and the campaign are then read side by side.
    const codeKey = await this.lookup.codeKey(appId, input.referralCode);
    if (!codeKey) throw notFound('Referral code', { referralCode: input.referralCode });
    const key = { campaignId: codeKey.campaignId, refereeId: input.refereeId, level: 1 };
    // With an Idempotency-Key, every try of the request is the same conversion.
    const conversionId = input.operationKey ? `conv_${input.operationKey}` : newId('conv');

    const [referral, existing, found] = await Promise.all([
      this.lookup.referralOf(appId, codeKey),
      this.conversions.refereeRecord(appId, key.campaignId, key.refereeId),
      this.campaigns.get(appId, key.campaignId),
    ]);
    if (!referral) throw notFound('Referral code', { referralCode: input.referralCode });
    if (existing && isConverted(existing) && existing.conversionId === conversionId && existing.referralId === referral._id) {
      // An earlier try of this very request converted: finish what it left and answer it again (even if the campaign paused since).
      return this.resume(appId, existing, referral, found);
    }
    const campaign = this.campaigns.requireActive(found);
    checkSale(campaign, { amount: input.amount, currency: input.currency ?? null });
    if (existing && isConverted(existing)) return this.finishOrRefuse(appId, existing, referral, campaign);

    const now = new Date();
    const touchedAt = existing && existing.referralId === referral._id ? existing.touchedAt : now;
    const verdict = await this.fraud.scoreConversion(
      conversionScore(
        appId,
        { conversionId, campaignId: referral.campaignId, referralCode: referral.code, referrerId: referral.referrerId, refereeId: input.refereeId },
        referral.referrerEmail,
        input.context,
        campaign.fraud.flagThreshold,
        now,
      ),
    );
    const root = await this.claim(appId, key, existing, conversionId, {
      referral,
      input,
      currency: campaign.currency,
      verdict,
      now,
      touchedAt,
      attributed: now.getTime() - touchedAt.getTime() <= campaign.attributionWindowDays * DAY_MS,
    });
    if (root.fraudCheck === 'DEFERRED') await this.deferredChecks.defer(appId, 'CONVERSION', root.conversionId);
    // The referral is COMPLETED from its first conversion on (its counters say so once the rewards are issued).
    const completedReferral: ReferralDoc = { ...referral, status: 'COMPLETED' };
    const [done] = await Promise.all([
      this.complete(appId, root, completedReferral, campaign),
      this.placeUnder(appId, referral, root),
      // The referee's address, for finding them among the participants.
      this.participants.seen(appId, input.refereeId, input.context.email ?? null, now),
    ]);
    return { ...done, referral: completedReferral };
  }

  /**
   * Turns the referee's level-1 record into the conversion, exactly once.
   * A PENDING/CLICKED funnel record is taken by deleting it (of concurrent
   * deletes of one document exactly one removes it, on MongoDB and on
   * FerretDB, whose conditional updates are not atomic) and replaced by the
   * converted record, under a new id so that a click's update still in
   * flight for the old record cannot overwrite it. Without a funnel record
   * the converted one is simply inserted. Either way the insert is under
   * the unique index (campaign, referee, level), which is what finally lets
   * only one conversion in.
   */
  private async claim(
    appId: string,
    key: { campaignId: string; refereeId: string; level: number },
    existing: ConversionDoc | null,
    conversionId: string,
    c: { referral: ReferralDoc; input: ConversionInput; currency: string; verdict: FraudVerdict; now: Date; touchedAt: Date; attributed: boolean },
  ): Promise<ConversionDoc> {
    const set = {
      referralId: c.referral._id,
      referralCode: c.referral.code,
      originalReferralCode: c.referral.code,
      referrerId: c.referral.referrerId,
      status: c.verdict.flagged ? ('FLAGGED' as const) : ('CONVERTED' as const),
      amount: c.input.amount,
      currency: c.currency,
      metadataJson: c.input.metadata ? JSON.stringify(c.input.metadata) : null,
      attributed: c.attributed,
      isFlagged: c.verdict.flagged,
      fraud: c.verdict.fraud,
      fraudCheck: c.verdict.deferred ? ('DEFERRED' as const) : ('DONE' as const),
      // Kept only while the fraud check waits: the recovery pass scores with it.
      context: c.verdict.deferred ? c.input.context : null,
      review: c.verdict.flagged ? ('OPEN' as const) : null,
      rewardsIssuedAt: null,
      rewardsSettled: false,
      touchedAt: c.touchedAt,
      convertedAt: c.now,
      lastEventAt: c.now,
      rewardAmount: 0,
      refereeRewardAmount: 0,
      stateVersion: 0,
    };
    let funnel = existing;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (funnel && isConverted(funnel)) throw alreadyConverted(funnel);
      const taken = funnel ? await this.conversions.takeFunnelRecord(appId, funnel._id) : false;
      if (!funnel || taken) {
        const converted = await this.conversions.insertRecord(appId, {
          _id: conversionId,
          conversionId,
          ...key,
          ...set,
          // The funnel's history carries over to the converted record.
          clickedAt: funnel?.clickedAt ?? null,
          createdAt: funnel?.createdAt ?? c.now,
        });
        if (converted) return converted;
      }
      // Another conversion got in first, or a click created the funnel record meanwhile: look again.
      funnel = await this.conversions.refereeRecord(appId, key.campaignId, key.refereeId);
    }
    if (funnel && isConverted(funnel)) throw alreadyConverted(funnel);
    throw conflict('CONFLICT', `Referee ${key.refereeId} is being updated concurrently; retry.`, { refereeId: key.refereeId });
  }

  /** The referee's own referral in this campaign (if any) now sits under the one it converted through. */
  private async placeUnder(appId: string, referral: ReferralDoc, root: ConversionDoc): Promise<void> {
    const refereeOwn = await this.lookup.ofReferrer(appId, root.campaignId, root.refereeId);
    if (refereeOwn && refereeOwn._id !== referral._id) {
      await this.referrals.update(appId, refereeOwn._id, { level: referral.level + 1, parentReferralId: referral._id });
    }
  }

  /**
   * Everything after the claim, each step idempotent so a retry or the
   * recovery pass can run it again: the upline records, the flag, the
   * rewards and the counters (counted once, when the rewards are issued).
   */
  async complete(
    appId: string,
    root: ConversionDoc,
    referral: ReferralDoc,
    campaign: CampaignDoc,
    options: { answerIssued?: boolean } = {},
  ): Promise<Omit<ConversionOutcome, 'referral'>> {
    const above = root.attributed ? await this.tree.upline(appId, referral, root.refereeId, deepestLevel(campaign) - 1) : [];
    const upline = await Promise.all(above.map((upReferral, i) => this.uplineRecord(appId, root, upReferral, i + 2)));
    if (root.status === 'FLAGGED') await this.flags.raiseForConversion(appId, root, root.fraud);
    const settled = await this.conversionRewards.settle(appId, root.conversionId, { campaign, records: [root, ...upline], ...options });
    const byLevel = new Map(settled.records.map((r) => [r.level, r]));
    return {
      root: byLevel.get(1) ?? root,
      upline: upline.map((r) => byLevel.get(r.level) ?? r),
      campaign,
      rewards: settled.rewards,
    };
  }

  private async uplineRecord(appId: string, root: ConversionDoc, upReferral: ReferralDoc, level: number): Promise<ConversionDoc> {
    const { doc, created } = await this.conversions.insertUplineRecord(appId, {
      _id: newId('conv'),
      campaignId: root.campaignId,
      conversionId: root.conversionId,
      referralId: upReferral._id,
      referralCode: upReferral.code,
      originalReferralCode: root.originalReferralCode,
      referrerId: upReferral.referrerId,
      refereeId: root.refereeId,
      level,
      status: root.status,
      amount: root.amount,
      currency: root.currency,
      metadataJson: null,
      rewardAmount: 0,
      refereeRewardAmount: 0,
      attributed: root.attributed,
      isFlagged: root.isFlagged,
      fraud: root.fraud,
      fraudCheck: root.fraudCheck,
      context: null,
      review: root.review,
      rewardsIssuedAt: null,
      stateVersion: root.stateVersion,
      rewardsSettled: true,
      touchedAt: root.touchedAt,
      clickedAt: null,
      convertedAt: root.convertedAt,
      lastEventAt: root.lastEventAt,
      createdAt: root.convertedAt ?? new Date(),
    });
    if (created) await this.counters.add(appId, upReferral, { [`conversions.L${level}`]: 1 });
    return doc;
  }

  /**
   * The same request again (its Idempotency-Key) after its first try
   * converted: every step after the claim is idempotent, so the steps a
   * crash cut short are finished, and the rewards the first try issued are
   * answered again, and the conversion is counted if the first try died
   * before its rewards were issued.
   */
  private async resume(appId: string, existing: ConversionDoc, referral: ReferralDoc, campaign: CampaignDoc): Promise<ConversionOutcome> {
    if (existing.fraudCheck === 'DEFERRED') await this.deferredChecks.defer(appId, 'CONVERSION', existing.conversionId);
    const done = await this.complete(appId, existing, referral, campaign, { answerIssued: true });
    return { ...done, referral: { ...referral, status: 'COMPLETED' } };
  }

  private async finishOrRefuse(appId: string, existing: ConversionDoc, referral: ReferralDoc, campaign: CampaignDoc): Promise<ConversionOutcome> {
    const unfinished =
      existing.rewardsIssuedAt === null &&
      existing.referralId === referral._id &&
      existing.convertedAt !== null &&
      Date.now() - existing.convertedAt.getTime() >= UNFINISHED_AFTER_MS;
    if (!unfinished) throw alreadyConverted(existing);
    return { ...(await this.complete(appId, existing, referral, campaign)), referral: { ...referral, status: 'COMPLETED' } };
  }
}
