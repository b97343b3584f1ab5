import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import type { ClientContext, FraudRecordClickRequest, FraudService } from '@ris/contracts';
import { invalidArgument, requiredField } from '@ris/rpc';
import type { FraudScorer } from './fraud-scorer';
import type { RiskAssessment } from './risk-assessment';
import type { NewSignal } from './signal-history';
import { clickSubject, conversionSubject, referralSubject } from './signal-subject';

const contextFields = (context: ClientContext | undefined) => ({
  ip: context?.ip?.trim() || null,
  userAgent: context?.userAgent || null,
  deviceId: context?.deviceId?.trim() || null,
  email: context?.email?.trim() || null,
});

const when = (ts: Timestamp | undefined) => (ts ? timestampDate(ts) : new Date());

const threshold = (value: number) => {
  if (!Number.isInteger(value) || value < 0 || value > 100) throw invalidArgument('flagThreshold must be an integer from 0 to 100');
  return value;
};

const assessmentProto = (a: RiskAssessment) => ({
  riskScore: a.riskScore,
  reasons: a.reasons,
  warning: a.warning ?? undefined,
  flagged: a.flagged,
});

export function fraudRpc(scorer: FraudScorer): ServiceImpl<typeof FraudService> {
  return {
    async scoreReferral(req) {
      const context = contextFields(req.context);
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const referrerId = requiredField(req.referrerId, 'referrerId');
      const assessment = await scorer.score({
        appId: requiredField(req.appId, 'appId'),
        signal: {
          _id: referralSubject(campaignId, referrerId),
          kind: 'REFERRAL',
          campaignId,
          referralCode: requiredField(req.referralCode, 'referralCode'),
          referrerId,
          refereeId: req.refereeId?.trim() || null,
          ...context,
          // The referrer's email, from the referral body or the context.
          email: req.referrerEmail?.trim() || context.email,
          at: when(req.occurredAt),
        },
        referrerEmail: req.referrerEmail?.trim() || null,
        flagThreshold: threshold(req.flagThreshold),
      });
      return { assessment: assessmentProto(assessment) };
    },

    async scoreConversion(req) {
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const refereeId = requiredField(req.refereeId, 'refereeId');
      const assessment = await scorer.score({
        appId: requiredField(req.appId, 'appId'),
        signal: {
          _id: conversionSubject(campaignId, refereeId),
          kind: 'CONVERSION',
          campaignId,
          referralCode: requiredField(req.referralCode, 'referralCode'),
          referrerId: requiredField(req.referrerId, 'referrerId'),
          refereeId,
          ...contextFields(req.context),
          at: when(req.occurredAt),
        },
        referrerEmail: req.referrerEmail?.trim() || null,
        flagThreshold: threshold(req.flagThreshold),
      });
      return { assessment: assessmentProto(assessment) };
    },

    async recordClicks(req) {
      await scorer.recordClicks(req.clicks.map(clickSignal));
      return {};
    },
  };
}

function clickSignal(req: FraudRecordClickRequest): { appId: string; signal: NewSignal } {
  return {
    appId: requiredField(req.appId, 'appId'),
    signal: {
      _id: clickSubject(requiredField(req.clickId, 'clickId')),
      kind: 'CLICK',
      campaignId: requiredField(req.campaignId, 'campaignId'),
      referralCode: requiredField(req.referralCode, 'referralCode'),
      referrerId: requiredField(req.referrerId, 'referrerId'),
      refereeId: req.refereeId?.trim() || null,
      ...contextFields(req.context),
      at: when(req.occurredAt),
    },
  };
}
