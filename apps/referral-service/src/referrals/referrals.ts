import { crashPoint } from '@ris/config';
import { idFromOperation, isDuplicateKeyError } from '@ris/mongo';
import { notFound } from '@ris/rpc';
import type { CampaignDoc } from '../campaigns/campaign.model';
import type { ClickDoc } from '../clicks/click.model';
import type { ClickRecorder } from '../clicks/click-recorder';
import { contextFields, referralScore, type FraudCheck } from '../fraud-check/fraud-check';
import type { FraudFlags } from '../flags/fraud-flags';
import type { RefereeFunnel } from '../conversions/referee-funnel';
import { generateReferralCode } from './referral-code';
import { referralCreated } from './referral-events';
import type { ClientContextDoc, ReferralDoc, ReferralRef } from './referral.model';
import type { ReferralStore } from '../referral-store';
import type { ReferralTree } from './referral-tree';
import { referralsCreated } from '../referral-metrics';

export interface CreateReferralInput {
  campaignId: string;
  referrerId: string;
  refereeId?: string;
  referrerUsername?: string;
  referrerEmail?: string;
  context?: Partial<ClientContextDoc>;
  /** From the request's Idempotency-Key (empty without one): the referral's id derives from it. */
  operationKey?: string;
}

const CODE_ATTEMPTS = 8;

export class Referrals {
  constructor(
    private readonly store: ReferralStore,
    private readonly tree: ReferralTree,
    private readonly funnel: RefereeFunnel,
    private readonly fraud: FraudCheck,
    private readonly flags: FraudFlags,
    private readonly clicks: ClickRecorder,
  ) {}

  /**
   * One referral per referrer and campaign: a second request returns the
   * first (created: false), except a retry of the request that created it
   * (same operation key), which is answered as created. The unique index decides races. A new referral
   * is scored by the fraud service, placed in the referral tree (level),
   * counted, and its referee (if named) enters the funnel as PENDING.
   */
  async create(appId: string, input: CreateReferralInput): Promise<{ referral: ReferralDoc; created: boolean }> {
    const { referrals, campaigns } = this.store;
    // One id for every attempt: the fraud service keeps one signal per id,
    // so a retry after a taken code does not count as another referral.
    const referralId = idFromOperation('ref', input.operationKey);
    const existing = await this.store.referralOf(appId, input.campaignId, input.referrerId);
    if (existing) {
      // A referral made before hosted links existed gets its link here.
      await Promise.all([campaigns.get(appId, input.campaignId), this.store.links.ensure(appId, existing)]);
      return { referral: existing, created: existing._id === referralId };
    }
    const campaign = await campaigns.getActive(appId, input.campaignId);
    const { level, parentReferralId } = await this.tree.levelOf(appId, input.campaignId, input.referrerId);
    const context = contextFields(input.context);

    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const code = generateReferralCode();
      // The code of a hosted link is unique across apps: claimed first, another drawn when an app holds it.
      if (!(await this.store.links.claim(appId, { _id: referralId, code, campaignId: input.campaignId, referrerId: input.referrerId }))) continue;
      const now = new Date();
      const doc: Omit<ReferralDoc, 'appId'> = {
        _id: referralId,
        campaignId: input.campaignId,
        code,
        referrerId: input.referrerId,
        refereeId: input.refereeId ?? null,
        referrerUsername: input.referrerUsername ?? null,
        referrerEmail: input.referrerEmail ?? null,
        status: 'PENDING',
        level,
        parentReferralId,
        rewardAmount: 0,
        isFlagged: false,
        fraud: { riskScore: null, reasons: [], warning: null },
        fraudCheck: 'DONE',
        context: null,
        createdAt: now,
      };
      // Scored before the insert so the response and referral.created carry
      // the verdict; the signal is keyed by this referral id.
      const verdict = await this.fraud.scoreReferral(referralScore(appId, doc, context, campaign.fraud.flagThreshold));
      doc.isFlagged = verdict.flagged;
      doc.fraud = verdict.fraud;
      if (verdict.deferred) {
        doc.fraudCheck = 'DEFERRED';
        doc.context = context;
      }
      try {
        // referral.created is stored with the referral (one insert) and published right after it.
        const carried = this.store.referralEvents.carry([referralCreated({ ...doc, appId })]);
        const referral = await referrals.create(appId, { ...doc, ...carried.fields });
        crashPoint('referral.created');
        carried.written(referral);
        referralsCreated.inc();
        await this.store.addKeys(appId, referral);
        await this.afterCreate(appId, referral);
        return { referral, created: true };
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Either another request created this referrer's referral just now,
        // or the random code was taken (by a referral older than hosted
        // links): tell which. Either way the code claimed is not this referral's.
        await this.store.links.release(appId, doc.code, referralId);
        const raced = await referrals.findOne(appId, { campaignId: input.campaignId, referrerId: input.referrerId });
        if (raced) {
          await Promise.all([this.store.addKeys(appId, raced), this.store.links.ensure(appId, raced)]);
          return { referral: raced, created: raced._id === referralId };
        }
      }
    }
    throw new Error('could not find a free referral code');
  }

  private async afterCreate(appId: string, referral: ReferralDoc): Promise<void> {
    await Promise.all([
      referral.fraudCheck === 'DEFERRED' ? this.store.deferFraudCheck(appId, 'REFERRAL', referral._id) : undefined,
      this.store.stats.count(appId, referral.campaignId, { totalReferrals: 1 }, referral.createdAt),
      referral.refereeId ? this.funnel.refereeKnown(appId, referral, referral.refereeId, referral.createdAt) : undefined,
      referral.isFlagged ? this.raiseFlag(appId, referral) : undefined,
    ]);
  }

  raiseFlag(appId: string, referral: ReferralDoc) {
    return this.flags.raise(appId, {
      subject: 'REFERRAL',
      subjectId: referral._id,
      campaignId: referral.campaignId,
      referralId: referral._id,
      referralCode: referral.code,
      conversionId: null,
      referrerId: referral.referrerId,
      refereeId: referral.refereeId,
      fraud: referral.fraud,
    });
  }

  /**
   * The referral of a hosted link's code, in whichever app holds it, with
   * its campaign (whose status and landing URL decide the redirect).
   */
  async resolveLink(rawCode: string): Promise<{ appId: string; code: string; referralId: string; referrerId: string; campaign: CampaignDoc }> {
    const key = await this.store.links.find(rawCode);
    if (!key) throw notFound('Referral code', { referralCode: rawCode });
    const campaign = await this.store.campaigns.get(key.appId, key.campaignId);
    return { appId: key.appId, code: key._id, referralId: key.referralId, referrerId: key.referrerId, campaign };
  }

  async getByCode(appId: string, code: string): Promise<ReferralDoc> {
    const referral = await this.store.referralByCode(appId, code);
    if (!referral) throw notFound('Referral code', { referralCode: code });
    return referral;
  }

  /**
   * A click on a code: stored with the other clicks of the moment, with
   * the referral's and the campaign's click counters, the event, and (when
   * the click names the referee) the referee's funnel record moved to
   * CLICKED. The fraud service gets the click's signals without the
   * response waiting for it.
   */
  async recordClick(
    appId: string,
    input: { referralCode: string; refereeId?: string; context?: Partial<ClientContextDoc>; operationKey?: string },
  ): Promise<ClickDoc> {
    // Only what never changes about the referral is needed here: its code key has it.
    const key = await this.store.codeKey(appId, input.referralCode);
    if (!key) throw notFound('Referral code', { referralCode: input.referralCode });
    const referral: ReferralRef = { _id: key.referralId, code: key.code, campaignId: key.campaignId, referrerId: key.referrerId };
    return this.clicks.record(appId, referral, input.refereeId ?? null, contextFields(input.context), input.operationKey);
  }
}
