import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type {
  FraudAssessment,
  FraudRecordClickRequestSchema,
  FraudService,
  GetSignalEvidenceRequestSchema,
  GetSignalEvidenceResponse,
  ScoreConversionRequestSchema,
  ScoreReferralRequestSchema,
  ServiceCalls,
} from '@ris/contracts';
import type { Logger } from '@ris/logging';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { ClientContextDoc, FraudDoc, ReferralDoc } from '../referrals/referral.model';

/** The verdict as this service stores it: fraud fields are null unless flagged (docs/product-decisions.md §5.2). */
export type FraudVerdict = { deferred: false; flagged: boolean; fraud: FraudDoc } | { deferred: true; flagged: false; fraud: FraudDoc };

export const CLEAN: FraudDoc = { riskScore: null, reasons: [], warning: null };

type ReferralScore = Omit<MessageInitShape<typeof ScoreReferralRequestSchema>, 'occurredAt' | '$typeName'> & { occurredAt: Date };
type ConversionScore = Omit<MessageInitShape<typeof ScoreConversionRequestSchema>, 'occurredAt' | '$typeName'> & { occurredAt: Date };

function verdictOf(assessment: FraudAssessment | undefined): FraudVerdict {
  if (!assessment?.flagged) return { deferred: false, flagged: false, fraud: CLEAN };
  return {
    deferred: false,
    flagged: true,
    fraud: { riskScore: assessment.riskScore ?? null, reasons: assessment.reasons, warning: assessment.warning ?? null },
  };
}

export const contextFields = (context: Partial<ClientContextDoc> | undefined): ClientContextDoc => ({
  ip: context?.ip ?? null,
  userAgent: context?.userAgent ?? null,
  deviceId: context?.deviceId ?? null,
  email: context?.email ?? null,
});

export const contextProto = (context: ClientContextDoc | null | undefined) => ({
  ip: context?.ip ?? undefined,
  userAgent: context?.userAgent ?? undefined,
  deviceId: context?.deviceId ?? undefined,
  email: context?.email ?? undefined,
});

/** The score request of a referral, at its creation or when the recovery pass scores it later. */
export function referralScore(
  appId: string,
  referral: Pick<ReferralDoc, '_id' | 'campaignId' | 'code' | 'referrerId' | 'refereeId' | 'referrerEmail' | 'createdAt'>,
  context: ClientContextDoc | null | undefined,
  flagThreshold: number,
): ReferralScore {
  return {
    appId,
    campaignId: referral.campaignId,
    referralId: referral._id,
    referralCode: referral.code,
    referrerId: referral.referrerId,
    refereeId: referral.refereeId ?? undefined,
    referrerEmail: referral.referrerEmail ?? undefined,
    context: contextProto(context),
    flagThreshold,
    occurredAt: referral.createdAt,
  };
}

/** The score request of a level-1 conversion, when it is recorded or when the recovery pass scores it later. */
export function conversionScore(
  appId: string,
  conversion: Pick<ConversionDoc, 'conversionId' | 'campaignId' | 'referralCode' | 'referrerId' | 'refereeId'>,
  referrerEmail: string | null | undefined,
  context: ClientContextDoc | null | undefined,
  flagThreshold: number,
  occurredAt: Date,
): ConversionScore {
  return {
    appId,
    campaignId: conversion.campaignId,
    conversionId: conversion.conversionId,
    referralCode: conversion.referralCode,
    referrerId: conversion.referrerId,
    refereeId: conversion.refereeId,
    referrerEmail: referrerEmail ?? undefined,
    context: contextProto(context),
    flagThreshold,
    occurredAt,
  };
}

/**
 * Calls the fraud service. Whatever goes wrong there (down, slow, broken)
 * must not stop a referral or conversion: the verdict is then DEFERRED, the
 * record keeps what the score needs, and the recovery pass scores it later.
 */
export class FraudCheck {
  constructor(
    private readonly client: ServiceCalls<typeof FraudService>,
    private readonly logger: Logger,
  ) {}

  async scoreReferral(req: ReferralScore): Promise<FraudVerdict> {
    try {
      const { assessment } = await this.client.scoreReferral({ ...req, occurredAt: timestampFromDate(req.occurredAt) });
      return verdictOf(assessment);
    } catch (err) {
      this.logger.warn({ err, referralId: req.referralId }, 'fraud check unavailable; referral scored later');
      return { deferred: true, flagged: false, fraud: CLEAN };
    }
  }

  async scoreConversion(req: ConversionScore): Promise<FraudVerdict> {
    try {
      const { assessment } = await this.client.scoreConversion({ ...req, occurredAt: timestampFromDate(req.occurredAt) });
      return verdictOf(assessment);
    } catch (err) {
      this.logger.warn({ err, conversionId: req.conversionId }, 'fraud check unavailable; conversion scored later');
      return { deferred: true, flagged: false, fraud: CLEAN };
    }
  }

  /** What the fraud service recorded about a scored subject (a flag's evidence); null when it does not answer. */
  async evidence(req: Omit<MessageInitShape<typeof GetSignalEvidenceRequestSchema>, '$typeName'>): Promise<GetSignalEvidenceResponse | null> {
    try {
      return await this.client.getSignalEvidence(req);
    } catch (err) {
      this.logger.warn({ err }, 'fraud evidence unavailable');
      return null;
    }
  }

  /**
   * Click signals are best effort, many per call: the clicks are answered
   * without waiting, and a failure only logs.
   */
  recordClicks(clicks: Array<MessageInitShape<typeof FraudRecordClickRequestSchema>>): void {
    if (clicks.length === 0) return;
    this.client.recordClicks({ clicks }).catch((err: unknown) => this.logger.debug({ err, clicks: clicks.length }, 'click signals not recorded'));
  }
}
