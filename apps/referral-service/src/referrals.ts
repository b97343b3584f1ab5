import type { Connection } from 'mongoose';
import type { Outbox } from '@ris/events';
import { AppScoped, isDuplicateKeyError, newId } from '@ris/mongo';
import { notFound } from '@ris/rpc';
import type { Campaigns } from './campaigns';
import { clickModel, type ClickDoc } from './click.model';
import { generateReferralCode, normalizeReferralCode } from './referral-code';
import { referralClicked, referralCreated } from './referral-events';
import { referralModel, type ReferralDoc } from './referral.model';

export interface ClientContext {
  ip?: string;
  userAgent?: string;
  deviceId?: string;
  email?: string;
}

export interface CreateReferralInput {
  campaignId: string;
  referrerId: string;
  refereeId?: string;
  referrerUsername?: string;
  referrerEmail?: string;
  context?: ClientContext;
}

const CODE_ATTEMPTS = 8;

export class Referrals {
  private readonly referrals: AppScoped<ReferralDoc>;
  private readonly clicks: AppScoped<ClickDoc>;

  constructor(
    db: Connection,
    private readonly campaigns: Campaigns,
    private readonly outbox: Outbox,
  ) {
    this.referrals = new AppScoped(referralModel(db));
    this.clicks = new AppScoped(clickModel(db));
  }

  /**
   * One referral per referrer and campaign: a second request returns the
   * first (created: false). The unique index decides races.
   */
  async create(appId: string, input: CreateReferralInput): Promise<{ referral: ReferralDoc; created: boolean }> {
    const existing = await this.referrals.findOne(appId, { campaignId: input.campaignId, referrerId: input.referrerId });
    if (existing) {
      await this.campaigns.get(appId, input.campaignId);
      return { referral: existing, created: false };
    }
    await this.campaigns.getActive(appId, input.campaignId);

    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const doc: Omit<ReferralDoc, 'appId'> = {
        _id: newId('ref'),
        campaignId: input.campaignId,
        code: generateReferralCode(),
        referrerId: input.referrerId,
        refereeId: input.refereeId ?? null,
        referrerUsername: input.referrerUsername ?? null,
        referrerEmail: input.referrerEmail ?? null,
        status: 'PENDING',
        level: 1,
        rewardAmount: 0,
        isFlagged: false,
        fraud: { riskScore: null, reasons: [], warning: null },
        createdAt: new Date(),
      };
      try {
        const referral = await this.referrals.create(appId, doc);
        await this.outbox.add(referralCreated(referral));
        return { referral, created: true };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Either another request created this referrer's referral just now,
        // or the random code was taken: tell which.
        const raced = await this.referrals.findOne(appId, { campaignId: input.campaignId, referrerId: input.referrerId });
        if (raced) return { referral: raced, created: false };
      }
    }
    throw new Error('could not find a free referral code');
  }

  async getByCode(appId: string, code: string): Promise<ReferralDoc> {
    const referral = await this.referrals.findOne(appId, { code: normalizeReferralCode(code) });
    if (!referral) throw notFound('Referral code', { referralCode: code });
    return referral;
  }

  async recordClick(
    appId: string,
    input: { referralCode: string; refereeId?: string; context?: ClientContext },
  ): Promise<ClickDoc> {
    const referral = await this.getByCode(appId, input.referralCode);
    const click = await this.clicks.create(appId, {
      _id: newId('clk'),
      referralId: referral._id,
      campaignId: referral.campaignId,
      code: referral.code,
      refereeId: input.refereeId ?? null,
      ip: input.context?.ip ?? null,
      userAgent: input.context?.userAgent ?? null,
      deviceId: input.context?.deviceId ?? null,
      clickedAt: new Date(),
    });
    await this.outbox.add(referralClicked(click, referral));
    return click;
  }
}
