import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { FraudService, SharedAttribute, SignalKind, enumValue, type ClientContext, type FraudRecordClickRequest } from '@ris/contracts';
import { invalidArgument, messageFields, requiredField, rpcService, tenantOf, type RpcService } from '@ris/rpc';
import type { Evidence, SignalEvidence } from './evidence/signal-evidence';
import type { FraudScorer } from './scoring/fraud-scorer';
import type { RiskAssessment } from './scoring/risk-assessment';
import { clickIdOf, clickSubject, conversionSubject, referralSubject, subjectOf } from './signals/signal-subject';
import type { NewSignal } from './signals/signal.repository';

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

/** Linked signals per evidence answer: 20 unless asked otherwise, at most 100. */
const evidenceLimit = (limit: number) => {
  if (limit === 0) return 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidArgument('limit must be an integer from 1 to 100');
  return limit;
};

function evidenceProto(evidence: Evidence | null, windowMinutes: number) {
  if (!evidence) return { found: false, windowMinutes };
  const { subject, click } = evidence;
  return {
    found: true,
    context: { ip: subject.ip ?? undefined, userAgent: subject.userAgent ?? undefined, deviceId: subject.deviceId ?? undefined, email: subject.email ?? undefined },
    at: timestampFromDate(subject.at),
    clickId: click ? clickIdOf(subjectOf(click)) : undefined,
    clickedAt: click ? timestampFromDate(click.at) : undefined,
    // The signal's fields of the same name as they are (messageFields); the rest named.
    linked: evidence.linked.map(({ signal, shared }) => ({
      ...messageFields(signal),
      kind: enumValue(SignalKind, signal.kind),
      clickId: signal.kind === 'CLICK' ? clickIdOf(subjectOf(signal)) : undefined,
      shared: shared.map((attribute) => enumValue(SharedAttribute, attribute)),
    })),
    windowMinutes,
  };
}

/**
 * The fraud service at its edge: requests checked and turned into signals,
 * answers into messages. Every call but RecordClicks acts for the app of
 * its request (tenantOf).
 */
export function fraudService(scorer: FraudScorer, evidence: SignalEvidence): RpcService {
  return rpcService(FraudService, fraudRpc(scorer, evidence), {
    tenant: { unscoped: { recordClicks: "a batch of many apps' clicks: each click carries its own appId" } },
  });
}

function fraudRpc(scorer: FraudScorer, evidence: SignalEvidence): Partial<ServiceImpl<typeof FraudService>> {
  return {
    async scoreReferral(req, ctx) {
      const context = contextFields(req.context);
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const referrerId = requiredField(req.referrerId, 'referrerId');
      const assessment = await scorer.score({
        appId: tenantOf(ctx),
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

    async scoreConversion(req, ctx) {
      const campaignId = requiredField(req.campaignId, 'campaignId');
      const refereeId = requiredField(req.refereeId, 'refereeId');
      const assessment = await scorer.score({
        appId: tenantOf(ctx),
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

    async getSignalEvidence(req, ctx) {
      const campaignId = requiredField(req.campaignId, 'campaignId');
      let subject: string;
      if (req.kind === SignalKind.REFERRAL) subject = referralSubject(campaignId, requiredField(req.referrerId, 'referrerId'));
      else if (req.kind === SignalKind.CONVERSION) subject = conversionSubject(campaignId, requiredField(req.refereeId ?? '', 'refereeId'));
      else throw invalidArgument('kind must be REFERRAL or CONVERSION');
      const found = await evidence.of(tenantOf(ctx), subject, evidenceLimit(req.limit));
      return evidenceProto(found, evidence.windowMinutes);
    },
  };
}

/** One click of a batch: each carries the app it is of. */
function clickSignal(click: FraudRecordClickRequest): { appId: string; signal: NewSignal } {
  return {
    appId: requiredField(click.appId, 'appId'),
    signal: {
      _id: clickSubject(requiredField(click.clickId, 'clickId')),
      kind: 'CLICK',
      campaignId: requiredField(click.campaignId, 'campaignId'),
      referralCode: requiredField(click.referralCode, 'referralCode'),
      referrerId: requiredField(click.referrerId, 'referrerId'),
      refereeId: click.refereeId?.trim() || null,
      ...contextFields(click.context),
      at: when(click.occurredAt),
    },
  };
}
