import { isDuplicateKeyError, newId, type Page, type PageQuery } from '@ris/mongo';
import { Code, notFound, rpcError } from '@ris/rpc';
import type { ConversionRewards } from '../conversions/conversion-rewards';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { FlagResolver, FlagStatus, FraudFlagDoc } from './fraud-flag.model';
import type { FraudDoc } from '../referrals/referral.model';
import type { ReferralStore } from '../referral-store';
import { fraudFlagsRaised } from '../referral-metrics';

export type FlagInput = Omit<FraudFlagDoc, '_id' | 'appId' | 'riskScore' | 'reasons' | 'warning' | 'status' | 'note' | 'createdAt' | 'resolvedAt' | 'resolvedBy' | 'effectsAppliedAt'> & {
  fraud: FraudDoc;
};

export type Decision = 'APPROVE' | 'REJECT';

/** Newest first, or riskiest first (then newest). */
export type FlagOrder = 'CREATED_AT' | 'RISK_SCORE';

export interface FlagFilter {
  status?: FlagStatus;
  campaignId?: string;
}

const ORDER: Record<FlagOrder, Record<string, -1>> = {
  CREATED_AT: { createdAt: -1, _id: -1 },
  RISK_SCORE: { riskScore: -1, createdAt: -1, _id: -1 },
};

/**
 * The review queue (GET /fraud/flags, POST /fraud/flags/{id}/resolve).
 * Approving a conversion's flag converts it and approves its held rewards;
 * rejecting cancels them (the records stay FLAGGED, marked REJECTED, and
 * no longer count as a link of the referral tree). Approving a referral's
 * flag clears its isFlagged; rejecting leaves it flagged.
 */
export class FraudFlags {
  constructor(
    private readonly store: ReferralStore,
    private readonly conversionRewards: ConversionRewards,
  ) {}

  /** Raises the flag once per subject (a retry or the recovery pass finds the first). */
  async raise(appId: string, input: FlagInput): Promise<FraudFlagDoc> {
    const { fraud, ...subject } = input;
    try {
      const flag = await this.store.flags.create(appId, {
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
      for (const reason of fraud.reasons) fraudFlagsRaised.inc({ reason });
      return flag;
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const existing = await this.store.flags.findOne(appId, { subject: input.subject, subjectId: input.subjectId });
      if (!existing) throw err;
      return existing;
    }
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
    const query: Record<string, string> = {};
    if (filter.campaignId) query.campaignId = filter.campaignId;
    if (filter.status) query.status = filter.status;
    return this.store.flags.page(appId, query, ORDER[order], page);
  }

  async get(appId: string, flagId: string): Promise<FraudFlagDoc> {
    const flag = await this.store.flags.findOne(appId, { _id: flagId });
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
    const flag = await this.store.flags.findOne(appId, { _id: flagId });
    if (!flag) throw notFound('Fraud flag', { flagId });
    // A flag is resolved once: the marker decides between concurrent resolutions.
    const marker = `flag-resolved:${flagId}`;
    if (flag.status !== 'OPEN' || !(await this.store.once.first(appId, marker, { status, operationKey: operationKey || null }))) {
      const decision = (await this.store.once.get(appId, marker))?.data;
      if (operationKey && decision?.operationKey === operationKey && decision.status === status) {
        return flag.status === 'OPEN' ? this.record(flag, status, note, resolvedBy) : flag.effectsAppliedAt ? flag : this.applyEffects(flag);
      }
      const decided = decision?.status ?? flag.status;
      throw rpcError(Code.Aborted, 'INVALID_TRANSITION', `Fraud flag ${flagId} is already ${String(decided)}.`, {
        flagId,
        status: String(decided),
      });
    }
    return this.record(flag, status, note, resolvedBy);
  }

  /** The decision the marker took, onto the flag, then its effects. */
  private async record(flag: FraudFlagDoc, status: FlagStatus, note: string | null, resolvedBy: FlagResolver | null): Promise<FraudFlagDoc> {
    const resolved = await this.store.flags.findOneAndUpdate(
      flag.appId,
      { _id: flag._id },
      { $set: { status, note, resolvedAt: new Date(), resolvedBy, effectsAppliedAt: null } },
    );
    return this.applyEffects(resolved ?? flag);
  }

  /** The decision's effects; idempotent, so the recovery pass re-runs it after a crash. */
  async applyEffects(flag: FraudFlagDoc): Promise<FraudFlagDoc> {
    const { appId } = flag;
    if (flag.subject === 'CONVERSION' && flag.conversionId) {
      if (flag.status === 'APPROVED') {
        await this.conversionRewards.changeState(appId, flag.conversionId, { status: 'FLAGGED' }, { status: 'CONVERTED', review: 'APPROVED' });
      } else {
        await this.conversionRewards.changeState(appId, flag.conversionId, { review: { $ne: 'REJECTED' } }, { review: 'REJECTED' });
      }
      await this.conversionRewards.settle(appId, flag.conversionId);
    } else if (flag.subject === 'REFERRAL' && flag.status === 'APPROVED') {
      await this.store.updateReferral(appId, flag.referralId, { isFlagged: false });
    }
    return (
      (await this.store.flags.findOneAndUpdate(appId, { _id: flag._id }, { $set: { effectsAppliedAt: new Date() } })) ?? flag
    );
  }
}
