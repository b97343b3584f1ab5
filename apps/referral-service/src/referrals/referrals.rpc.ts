import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { ReferralSchema, ReferralStatus, enumValue, type ListReferralsRequest, type Referral, type ReferralService } from '@ris/contracts';
import { messageFields, pageFromRequest, pageReply, requiredField, tenantOf } from '@ris/rpc';
import { campaignSummaryMessage } from '../campaigns/campaigns.rpc';
import { contextFields } from '../fraud-check/fraud-check';
import type { ReferralBatch, ReferralList } from './referral-list';
import type { ReferralListFilter } from './referral.repository';
import type { ReferralView, Referrals } from './referrals';

function referralMessage({ referral: doc, campaign, counters }: ReferralView): Referral {
  // Referral.status, conversions and rewardAmount live in the referral's counters.
  const conversions = counters?.conversions?.L1 ?? 0;
  const completed = conversions > 0;
  return create(ReferralSchema, {
    ...messageFields(doc),
    id: doc._id,
    referralCode: doc.code,
    status: enumValue(ReferralStatus, completed ? 'COMPLETED' : doc.status),
    rewardAmount: counters?.rewardAmount ?? 0,
    conversions,
    campaign: campaignSummaryMessage(campaign),
    fraud: {
      riskScore: doc.fraud.riskScore ?? undefined,
      reasons: doc.fraud.reasons,
      warning: doc.fraud.warning ?? undefined,
      flagged: doc.isFlagged,
    },
  });
}

/** The referrals of a page or an export's batch, with their counters and campaigns. */
const referralMessages = (batch: ReferralBatch): Referral[] =>
  batch.items.flatMap((referral) => {
    // A referral's campaign is never deleted; without it the referral is not shown rather than shown half.
    const campaign = batch.campaigns.get(referral.campaignId);
    return campaign ? [referralMessage({ referral, campaign, counters: batch.counters.get(referral._id) ?? null })] : [];
  });

/** The filters of GET /referrals, from a list or export request. */
/** The filters of a list or export request (the same fields in both). */
const referralFilter = (req: Omit<ListReferralsRequest, 'page' | '$typeName'>): ReferralListFilter => ({ campaignId: req.campaignId || undefined, referrerId: req.referrerId || undefined });

type ReferralCalls = Pick<ServiceImpl<typeof ReferralService>, 'createReferral' | 'getReferral' | 'listReferrals' | 'exportReferrals' | 'resolveReferralLink'>;

/** Referrals at the edge. ResolveReferralLink is the one call without a tenant: its code finds the app. */
export function referralCalls(referrals: Referrals, list: ReferralList): ReferralCalls {
  return {
    async createReferral(req, ctx) {
      const appId = tenantOf(ctx);
      const { referral, created } = await referrals.create(appId, {
        campaignId: requiredField(req.campaignId, 'campaignId'),
        referrerId: requiredField(req.referrerId, 'referrerId'),
        refereeId: req.refereeId,
        referrerUsername: req.referrerUsername,
        referrerEmail: req.referrerEmail,
        context: contextFields(req.context),
        operationKey: req.operationKey,
      });
      return { referral: referralMessage(await referrals.view(appId, referral)), created };
    },

    async getReferral(req, ctx) {
      const appId = tenantOf(ctx);
      const referral = await referrals.getByCode(appId, requiredField(req.referralCode, 'referralCode'));
      return { referral: referralMessage(await referrals.view(appId, referral)) };
    },

    async listReferrals(req, ctx) {
      const page = await list.list(tenantOf(ctx), referralFilter(req), pageFromRequest(req.page));
      return { referrals: referralMessages(page), page: pageReply(page) };
    },

    async *exportReferrals(req, ctx) {
      for await (const batch of list.export(tenantOf(ctx), referralFilter(req))) yield { referrals: referralMessages(batch) };
    },

    async resolveReferralLink(req) {
      const link = await referrals.resolveLink(requiredField(req.referralCode, 'referralCode'));
      return {
        appId: link.appId,
        referralCode: link.code,
        referralId: link.referralId,
        referrerId: link.referrerId,
        campaign: campaignSummaryMessage(link.campaign),
        landingUrl: link.campaign.landingUrl ?? undefined,
      };
    },
  };
}
