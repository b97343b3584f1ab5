import type { Logger } from '@ris/logging';
import { PeriodicRecovery, recoverIsolated, type RecoveryOptions } from '@ris/service-runtime';
import { conversionFlagged } from '../conversions/conversion-events';
import type { ConversionRewards } from '../conversions/conversion-rewards';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { DeferredFraudCheckDoc } from '../fraud-check/deferred-fraud-check.model';
import { conversionScore, referralScore, type FraudCheck } from '../fraud-check/fraud-check';
import type { FraudFlags } from '../flags/fraud-flags';
import type { ReferralStore } from '../referral-store';
import type { Referrals } from '../referrals/referrals';
import { UNFINISHED_AFTER_MS, type ConversionRecorder } from '../conversions/record-conversion';

export type { RecoveryOptions };

/**
 * Finishes what a request could not: scores referrals and conversions the
 * fraud service was down for (their rewards stay held until then), issues
 * and settles rewards the reward service failed, and applies review
 * decisions whose effects were interrupted. Every step is idempotent, so
 * each replica runs the pass; it works across apps (a system job), and
 * handles each record with that record's own appId.
 */
export class RecoveryPass extends PeriodicRecovery {
  constructor(
    private readonly store: ReferralStore,
    private readonly deps: {
      fraud: FraudCheck;
      flags: FraudFlags;
      conversionRewards: ConversionRewards;
      recorder: ConversionRecorder;
      referrals: Referrals;
    },
    logger: Logger,
    options: RecoveryOptions,
  ) {
    super(logger, options);
  }

  async runOnce(): Promise<void> {
    await this.scoreDeferred();
    await this.settleConversions();
    await this.applyDecisions();
  }

  /** The queue of checks the fraud service could not answer; stops at the first still unanswered. */
  private async scoreDeferred(): Promise<void> {
    const waiting = await this.store.deferredChecks.model
      .find({})
      .sort({ createdAt: 1 })
      .limit(this.batchSize)
      .lean<DeferredFraudCheckDoc[]>()
      .exec();
    for (const item of waiting) {
      const { appId } = item;
      let scored: boolean;
      try {
        scored = item.kind === 'REFERRAL' ? await this.scoreReferral(appId, item._id) : await this.scoreConversion(appId, item._id);
      } catch (err) {
        this.logger.warn({ err, subjectId: item._id }, 'deferred fraud check failed; will retry');
        continue;
      }
      if (!scored) return; // still down: try again next pass
      await this.store.deferredChecks.deleteOne(appId, { _id: item._id });
    }
  }

  /** False when the fraud service still cannot answer. */
  private async scoreReferral(appId: string, referralId: string): Promise<boolean> {
    const referral = await this.store.referrals.findOne(appId, { _id: referralId });
    if (!referral || referral.fraudCheck !== 'DEFERRED') return true;
    const campaign = await this.store.campaigns.get(appId, referral.campaignId);
    const verdict = await this.deps.fraud.scoreReferral(referralScore(appId, referral, referral.context, campaign.fraud.flagThreshold));
    if (verdict.deferred) return false;
    await this.store.updateReferral(appId, referral._id, { fraudCheck: 'DONE', context: null, isFlagged: verdict.flagged, fraud: verdict.fraud });
    if (verdict.flagged) await this.deps.referrals.raiseFlag(appId, { ...referral, isFlagged: true, fraud: verdict.fraud });
    return true;
  }

  private async scoreConversion(appId: string, conversionId: string): Promise<boolean> {
    const root = await this.store.conversions.findOne(appId, { _id: conversionId });
    if (!root || root.fraudCheck !== 'DEFERRED') return true;
    const [campaign, referral] = await Promise.all([
      this.store.campaigns.get(appId, root.campaignId),
      this.store.referrals.findOne(appId, { _id: root.referralId }),
    ]);
    const verdict = await this.deps.fraud.scoreConversion(
      conversionScore(appId, root, referral?.referrerEmail, root.context, campaign.fraud.flagThreshold, root.convertedAt ?? root.lastEventAt),
    );
    if (verdict.deferred) return false;
    const { conversionRewards } = this.deps;
    if (verdict.flagged) {
      await this.deps.flags.raiseForConversion(appId, root, verdict.fraud);
      // Records whose conversion.created went out already announce the flag now; the others with it, once issued.
      await conversionRewards.changeState(
        appId,
        root.conversionId,
        { fraudCheck: 'DEFERRED' },
        { status: 'FLAGGED', isFlagged: true, fraud: verdict.fraud, fraudCheck: 'DONE', review: 'OPEN', context: null },
        (after) => (after.rewardsIssuedAt !== null ? [conversionFlagged(after)] : []),
      );
    } else {
      await conversionRewards.changeState(appId, root.conversionId, { fraudCheck: 'DEFERRED' }, { fraudCheck: 'DONE', context: null });
    }
    await conversionRewards.settle(appId, root.conversionId);
    return true;
  }

  /** Conversions whose rewards were not issued (or not brought in line) by the request that changed them. */
  private async settleConversions(): Promise<void> {
    const unsettled = await this.store.conversions.model
      .find({ rewardsSettled: false, level: 1, convertedAt: { $lt: new Date(Date.now() - UNFINISHED_AFTER_MS) } })
      .sort({ convertedAt: 1 })
      .limit(this.batchSize)
      .lean<ConversionDoc[]>()
      .exec();
    for (const root of unsettled) {
      await this.isolated({ conversionId: root.conversionId }, async () => {
        const { appId } = root;
        if (root.rewardsIssuedAt === null) {
          const [campaign, referral] = await Promise.all([
            this.store.campaigns.get(appId, root.campaignId),
            this.store.referrals.findOne(appId, { _id: root.referralId }),
          ]);
          if (referral) await this.deps.recorder.complete(appId, root, referral, campaign);
        } else {
          await this.deps.conversionRewards.settle(appId, root.conversionId);
        }
      });
    }
  }

  private async applyDecisions(): Promise<void> {
    const interrupted = await this.store.flags.model
      .find({ effectsAppliedAt: null, resolvedAt: { $lt: new Date(Date.now() - UNFINISHED_AFTER_MS) } })
      .limit(this.batchSize)
      .lean()
      .exec();
    for (const flag of interrupted) await this.isolated({ flagId: flag._id }, () => this.deps.flags.applyEffects(flag));
  }

  /** One record's failure (the reward service still down, say) is logged and does not stop the others. */
  private isolated(about: Record<string, string>, work: () => Promise<unknown>): Promise<void> {
    return recoverIsolated(this.logger, about, 'recovery of a record failed; will retry', work);
  }
}
