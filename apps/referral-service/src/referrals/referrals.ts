import { crashPoint } from '@ris/config';
import { notFound } from '@ris/domain-errors';
import { idFromOperation } from '@ris/mongo';
import { Counter } from 'prom-client';
import type { CampaignDoc, CampaignSummary } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { RefereeFunnel } from '../conversions/referee-funnel';
import type { DeferredFraudCheckRepository } from '../fraud-check/deferred-fraud-check.repository';
import { contextFields, referralScore, type FraudCheck } from '../fraud-check/fraud-check';
import type { FraudFlags } from '../flags/fraud-flags';
import type { Participants } from '../participants/participants';
import type { CampaignStats } from '../stats/campaign-stats';
import { generateReferralCode } from './referral-code';
import type { ReferralCountersDoc } from './referral-counters.model';
import type { ReferralCountersRepository } from './referral-counters.repository';
import { referralCreated } from './referral-events';
import type { ReferralLinkRepository } from './referral-link.repository';
import type { ReferralLookup } from './referral-lookup';
import type { ClientContextDoc, ReferralDoc } from './referral.model';
import type { ReferralRepository } from './referral.repository';
import type { ReferralTree } from './referral-tree';

/** Business counter of the referral service (per process; sum over replicas). */
const referralsCreated = new Counter({ name: 'ris_referrals_created_total', help: 'Referrals created' });

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

/** A referral as the API shows it: with its campaign's name and status, and its counters (status, reward amount). */
export interface ReferralView {
  referral: ReferralDoc;
  campaign: CampaignSummary;
  counters: ReferralCountersDoc | null;
}

/** The referral of a hosted link's code, in whichever app holds it, with its campaign. */
export interface ReferralLink {
  appId: string;
  code: string;
  referralId: string;
  referrerId: string;
  campaign: CampaignDoc;
}

const CODE_ATTEMPTS = 8;

export class Referrals {
  constructor(
    private readonly referrals: ReferralRepository,
    private readonly lookup: ReferralLookup,
    private readonly links: ReferralLinkRepository,
    private readonly counters: ReferralCountersRepository,
    private readonly campaigns: Campaigns,
    private readonly stats: CampaignStats,
    private readonly tree: ReferralTree,
    private readonly funnel: RefereeFunnel,
    private readonly fraud: FraudCheck,
    private readonly deferredChecks: DeferredFraudCheckRepository,
    private readonly flags: FraudFlags,
    private readonly participants: Participants,
  ) {}

  /**
   * One referral per referrer and campaign: a second request returns the
   * first (created: false), except a retry of the request that created it
   * (same operation key), which is answered as created. The unique index decides races. A new referral
   * is scored by the fraud service, placed in the referral tree (level),
   * counted, and its referee (if named) enters the funnel as PENDING.
   */
  async create(appId: string, input: CreateReferralInput): Promise<{ referral: ReferralDoc; created: boolean }> {
    // One id for every attempt: the fraud service keeps one signal per id,
    // so a retry after a taken code does not count as another referral.
    const referralId = idFromOperation('ref', input.operationKey);
    const existing = await this.lookup.ofReferrer(appId, input.campaignId, input.referrerId);
    if (existing) {
      // A referral made before hosted links existed gets its link here.
      await Promise.all([this.campaigns.get(appId, input.campaignId), this.links.ensure(appId, existing)]);
      return { referral: existing, created: existing._id === referralId };
    }
    const campaign = await this.campaigns.getActive(appId, input.campaignId);
    const { level, parentReferralId } = await this.tree.levelOf(appId, input.campaignId, input.referrerId);
    const context = contextFields(input.context);

    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const code = generateReferralCode();
      // The code of a hosted link is unique across apps: claimed first, another drawn when an app holds it.
      if (!(await this.links.claim(appId, { _id: referralId, code, campaignId: input.campaignId, referrerId: input.referrerId }))) continue;
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
      // referral.created is stored with the referral (one insert) and published right after it.
      const carried = this.referrals.events.carry([referralCreated({ ...doc, appId })]);
      const referral = await this.referrals.insert(appId, { ...doc, ...carried.fields });
      if (referral) {
        crashPoint('referral.created');
        carried.written(referral);
        referralsCreated.inc();
        await this.lookup.addKeys(appId, referral);
        await this.afterCreate(appId, referral);
        return { referral, created: true };
      }
      // Either another request created this referrer's referral just now,
      // or the random code was taken (by a referral older than hosted
      // links): tell which. Either way the code claimed is not this referral's.
      await this.links.release(appId, doc.code, referralId);
      const raced = await this.referrals.ofReferrer(appId, input.campaignId, input.referrerId);
      if (raced) {
        await Promise.all([this.lookup.addKeys(appId, raced), this.links.ensure(appId, raced)]);
        return { referral: raced, created: raced._id === referralId };
      }
    }
    throw new Error('could not find a free referral code');
  }

  private async afterCreate(appId: string, referral: ReferralDoc): Promise<void> {
    await Promise.all([
      referral.fraudCheck === 'DEFERRED' ? this.deferredChecks.defer(appId, 'REFERRAL', referral._id) : undefined,
      this.stats.count(appId, referral.campaignId, { totalReferrals: 1 }, referral.createdAt),
      this.participants.referralCreated(appId, referral),
      referral.refereeId ? this.funnel.refereeKnown(appId, referral, referral.refereeId, referral.createdAt) : undefined,
      referral.isFlagged ? this.flags.raiseForReferral(appId, referral) : undefined,
    ]);
  }

  /**
   * The referral of a hosted link's code, in whichever app holds it, with
   * its campaign (whose status and landing URL decide the redirect).
   */
  async resolveLink(rawCode: string): Promise<ReferralLink> {
    const key = await this.links.holderOf(rawCode);
    if (!key) throw notFound('Referral code', { referralCode: rawCode });
    const campaign = await this.campaigns.get(key.appId, key.campaignId);
    return { appId: key.appId, code: key._id, referralId: key.referralId, referrerId: key.referrerId, campaign };
  }

  async getByCode(appId: string, code: string): Promise<ReferralDoc> {
    const referral = await this.lookup.byCode(appId, code);
    if (!referral) throw notFound('Referral code', { referralCode: code });
    return referral;
  }

  /** The referral as the API shows it: its campaign's name and status, its counters (Referral.status and rewardAmount live there). */
  async view(appId: string, referral: ReferralDoc): Promise<ReferralView> {
    const [campaign, counters] = await Promise.all([this.campaigns.get(appId, referral.campaignId), this.counters.findById(appId, referral._id)]);
    return { referral, campaign, counters };
  }
}
