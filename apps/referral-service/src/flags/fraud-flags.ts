import { Counter } from 'prom-client';
import type { EnumName, FraudDecision } from '@ris/contracts';
import { conflict, notFound } from '@ris/domain-errors';
import { newId, type OnceMarkers, type Page, type PageQuery } from '@ris/mongo';
import type { ConversionRewards } from '../conversions/conversion-rewards';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { FraudDoc, ReferralDoc } from '../referrals/referral.model';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { FlagResolver, FlagStatus, FraudFlagDoc } from './fraud-flag.model';
import type { FlagFilter, FlagOrder, FraudFlagRepository } from './fraud-flag.repository';

/** Business counter of the referral service (per process; sum over replicas). */
const fraudFlagsRaised = new Counter({
  name: 'ris_fraud_flags_total',
  help: 'Fraud flags raised for review, by reason (a flag with several reasons counts under each)',
  labelNames: ['reason'],
});

export type { FlagFilter, FlagOrder };

export type FlagInput = Omit<FraudFlagDoc, '_id' | 'appId' | 'riskScore' | 'reasons' | 'warning' | 'status' | 'note' | 'createdAt' | 'resolvedAt' | 'resolvedBy' | 'effectsAppliedAt'> & {
  fraud: FraudDoc;
};

/** APPROVE or REJECT: the names of the contract's FraudDecision. */
export type Decision = EnumName<typeof FraudDecision>;

/**
 * The review queue (GET /fraud/flags, POST /fraud/flags/{id}/resolve).
 * Approving a conversion's flag converts it and approves its held rewards;
 * rejecting makes its records REJECTED and cancels them: it then counts in
 * no figure and no longer as a link of the referral tree. Approving a referral's
 * flag clears its isFlagged; rejecting leaves it flagged.
 */
export class FraudFlags {
  constructor(
    private readonly flags: FraudFlagRepository,
    private readonly referrals: ReferralRepository,
    private readonly once: OnceMarkers,
    private readonly conversionRewards: ConversionRewards,
  ) {}

  /** Raises the flag once per subject (a retry or the recovery pass finds the first). */
  async raise(appId: string, input: FlagInput): Promise<FraudFlagDoc> {
    const { fraud, ...subject } = input;
    const { doc, created } = await this.flags.raise(appId, {
      _id: newId('flg'),
      ...subject,
      riskScore: fraud.riskScore ?? 0,
      reasons: fraud.reasons,
      warning: fraud.warning ?? 'Flagged for review.',
      status: 'OPEN',
      note: null,
      createdAt: new Date(),
      resolvedAt: null,
      resolvedBy: null,
      effectsAppliedAt: null,
    });
    if (created) for (const reason of fraud.reasons) fraudFlagsRaised.inc({ reason });
    return doc;
  }

  /** The flag of a referral (at its creation, or when the recovery pass scores it later). */
  raiseForReferral(appId: string, referral: ReferralDoc): Promise<FraudFlagDoc> {
    return this.raise(appId, {
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

  /** The flag of a level-1 conversion (at its claim, or when the recovery pass scores it later). */
  raiseForConversion(appId: string, root: ConversionDoc, fraud: FraudDoc): Promise<FraudFlagDoc> {
    return this.raise(appId, {
      subject: 'CONVERSION',
      subjectId: root.conversionId,
      campaignId: root.campaignId,
      referralId: root.referralId,
      referralCode: root.referralCode,
      conversionId: root.conversionId,
      referrerId: root.referrerId,
      refereeId: root.refereeId,
      fraud,
    });
  }

  /** GET /fraud/flags: each filter and order has its index (fraud-flag.model.ts). */
  list(appId: string, page: PageQuery, filter: FlagFilter = {}, order: FlagOrder = 'CREATED_AT'): Promise<Page<FraudFlagDoc>> {
    return this.flags.page(appId, filter, order, page);
  }

  async get(appId: string, flagId: string): Promise<FraudFlagDoc> {
    const flag = await this.flags.findById(appId, flagId);
    if (!flag) throw notFound('Fraud flag', { flagId });
    return flag;
  }

  /**
   * Resolves the flag once, recording who decided (an operator of the
   * dashboard; null for an app's backend). A retry of the request that
   * resolved it (the same operation key, from its Idempotency-Key) is
   * answered with the resolved flag, and finishes the resolution if a crash
   * cut it short.
   */
  async resolve(
    appId: string,
    flagId: string,
    decision: Decision,
    note: string | null,
    operationKey = '',
    resolvedBy: FlagResolver | null = null,
  ): Promise<FraudFlagDoc> {
    const status: FlagStatus = decision === 'APPROVE' ? 'APPROVED' : 'REJECTED';
    const flag = await this.get(appId, flagId);
    // A flag is resolved once: the marker decides between concurrent resolutions.
    const marker = `flag-resolved:${flagId}`;
    if (flag.status !== 'OPEN' || !(await this.once.first(appId, marker, { status, operationKey: operationKey || null }))) {
      const decision = (await this.once.get(appId, marker))?.data;
      if (operationKey && decision?.operationKey === operationKey && decision.status === status) {
        return flag.status === 'OPEN' ? this.record(flag, status, note, resolvedBy) : flag.effectsAppliedAt ? flag : this.applyEffects(flag);
      }
      const decided = decision?.status ?? flag.status;
      throw conflict('INVALID_TRANSITION', `Fraud flag ${flagId} is already ${String(decided)}.`, {
        flagId,
        status: String(decided),
      });
    }
    return this.record(flag, status, note, resolvedBy);
  }

  /** The decision the marker took, onto the flag, then its effects. */
  private async record(flag: FraudFlagDoc, status: FlagStatus, note: string | null, resolvedBy: FlagResolver | null): Promise<FraudFlagDoc> {
    const resolved = await this.flags.resolve(flag.appId, flag._id, { status, note, resolvedBy });
    return this.applyEffects(resolved ?? flag);
  }

  /** The decision's effects; idempotent, so the recovery pass re-runs it after a crash. */
  async applyEffects(flag: FraudFlagDoc): Promise<FraudFlagDoc> {
    const { appId } = flag;
    if (flag.subject === 'CONVERSION' && flag.conversionId) {
      if (flag.status === 'APPROVED') {
        await this.conversionRewards.changeState(appId, flag.conversionId, 'flagged', { status: 'CONVERTED', review: 'APPROVED' });
      } else {
        await this.conversionRewards.changeState(appId, flag.conversionId, 'unrejected', { status: 'REJECTED', review: 'REJECTED' });
      }
      await this.conversionRewards.settle(appId, flag.conversionId);
    } else if (flag.subject === 'REFERRAL' && flag.status === 'APPROVED') {
      await this.referrals.update(appId, flag.referralId, { isFlagged: false });
    }
    return (await this.flags.effectsApplied(appId, flag._id)) ?? flag;
  }
}
