import { create } from '@bufbuild/protobuf';
import { FraudEvidenceSchema, SignalKind, type FraudEvidence, type LinkedSignal } from '@ris/contracts';
import type { ConversionRepository } from '../conversions/conversion.repository';
import type { FraudCheck } from '../fraud-check/fraud-check';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { FraudFlagDoc } from './fraud-flag.model';

/** Linked records per flag: enough to show a pattern, bounded so the read stays a few indexed queries. */
const LINKED_LIMIT = 20;

/**
 * A flag's evidence: the signals the fraud service recorded when it scored
 * the flagged referral (its referrer) or conversion (its referee), and the
 * records sharing their IP, device or email, with the ids of this
 * service's records. The fraud service keys a referral's signal by
 * campaign and referrer and a conversion's by campaign and referee (not by
 * the id of the attempt that scored it), so those ids are looked up here,
 * by the same keys: a referral by (campaign, referrer), a conversion by
 * its level-1 record (campaign, referee): one read of a unique index each,
 * side by side. Null when the fraud service does not
 * answer: the flag is still shown and can be resolved.
 */
export class FlagEvidence {
  constructor(
    private readonly referrals: ReferralRepository,
    private readonly conversions: ConversionRepository,
    private readonly fraud: FraudCheck,
  ) {}

  async of(flag: FraudFlagDoc): Promise<FraudEvidence | null> {
    const { appId } = flag;
    const answer = await this.fraud.evidence({
      appId,
      kind: flag.subject === 'REFERRAL' ? SignalKind.REFERRAL : SignalKind.CONVERSION,
      campaignId: flag.campaignId,
      referrerId: flag.referrerId,
      refereeId: flag.refereeId ?? undefined,
      limit: LINKED_LIMIT,
    });
    if (!answer) return null;
    const ids = await Promise.all(answer.linked.map((signal) => this.recordId(appId, signal)));
    return create(FraudEvidenceSchema, {
      found: answer.found,
      context: answer.context,
      occurredAt: answer.at,
      clickId: answer.clickId,
      clickedAt: answer.clickedAt,
      linked: answer.linked.map((signal, i) => ({
        kind: signal.kind,
        id: ids[i] ?? undefined,
        campaignId: signal.campaignId,
        referralCode: signal.referralCode,
        referrerId: signal.referrerId,
        refereeId: signal.refereeId,
        shared: signal.shared,
        at: signal.at,
      })),
      windowMinutes: answer.windowMinutes,
    });
  }

  /** The stored record a signal stands for; null when its attempt was never stored. */
  private async recordId(appId: string, signal: LinkedSignal): Promise<string | null> {
    switch (signal.kind) {
      case SignalKind.CLICK:
        return signal.clickId ?? null;
      case SignalKind.REFERRAL:
        return (await this.referrals.ofReferrer(appId, signal.campaignId, signal.referrerId))?._id ?? null;
      case SignalKind.CONVERSION: {
        if (!signal.refereeId) return null;
        const record = await this.conversions.refereeRecord(appId, signal.campaignId, signal.refereeId);
        return record?.convertedAt ? record.conversionId : null;
      }
      default:
        return null;
    }
  }
}
