import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import { SharedAttribute, SignalKind, enumValue, type ClientContext, type FraudRecordClickRequest, type FraudService } from '@ris/contracts';
import { invalidArgument, requiredField } from '@ris/rpc';
import type { FraudScorer } from './fraud-scorer';
import type { RiskAssessment } from './risk-assessment';
import type { Evidence, SignalEvidence } from './signal-evidence';
import { storedId, type NewSignal } from './signal-history';
import type { SignalDoc } from './signal.model';
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

/** Linked signals per evidence answer: 20 unless asked otherwise, at most 100. */
const evidenceLimit = (limit: number) => {
  if (limit === 0) return 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidArgument('limit must be an integer from 1 to 100');
  return limit;
};

const CLICK_PREFIX = clickSubject('');

function evidenceProto(evidence: Evidence | null, windowMinutes: number) {
  if (!evidence) return { found: false, windowMinutes };
  const { subject, click } = evidence;
  return {
    found: true,
    context: { ip: subject.ip ?? undefined, userAgent: subject.userAgent ?? undefined, deviceId: subject.deviceId ?? undefined, email: subject.email ?? undefined },
    at: timestampFromDate(subject.at),
    clickId: click ? clickIdOf(click) : undefined,
    clickedAt: click ? timestampFromDate(click.at) : undefined,
    linked: evidence.linked.map(({ signal, shared }) => ({
      kind: enumValue(SignalKind, signal.kind),
      campaignId: signal.campaignId,
      referralCode: signal.referralCode,
      referrerId: signal.referrerId,
      refereeId: signal.refereeId ?? undefined,
      clickId: signal.kind === 'CLICK' ? clickIdOf(signal) : undefined,
      shared: shared.map((attribute) => enumValue(SharedAttribute, attribute)),
      at: timestampFromDate(signal.at),
    })),
    windowMinutes,
  };
}

/** A click signal's click id, from its stored id `<appId>:CLICK:<clickId>`. */
const clickIdOf = (signal: SignalDoc) => signal._id.slice(signal.appId.length + 1 + CLICK_PREFIX.length);

export function fraudRpc(scorer: FraudScorer, evidence: SignalEvidence): ServiceImpl<typeof FraudService> {
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

    async getSignalEvidence(req) {
      const appId = requiredField(req.appId, 'appId');
      const campaignId = requiredField(req.campaignId, 'campaignId');
      let subject: string;
      if (req.kind === SignalKind.REFERRAL) subject = referralSubject(campaignId, requiredField(req.referrerId, 'referrerId'));
      else if (req.kind === SignalKind.CONVERSION) subject = conversionSubject(campaignId, requiredField(req.refereeId ?? '', 'refereeId'));
      else throw invalidArgument('kind must be REFERRAL or CONVERSION');
      const found = await evidence.of(appId, storedId(appId, subject), evidenceLimit(req.limit));
      return evidenceProto(found, evidence.windowMinutes);
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
