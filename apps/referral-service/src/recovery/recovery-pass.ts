import { isDomainError } from '@ris/domain-errors';
import type { Logger } from '@ris/logging';
import { PeriodicRecovery, recoverIsolated, type RecoveryOptions } from '@ris/service-runtime';
import type { Campaigns } from '../campaigns/campaigns';
import { conversionFlagged } from '../conversions/conversion-events';
import type { ConversionRewards } from '../conversions/conversion-rewards';
import type { ConversionRepository } from '../conversions/conversion.repository';
import { UNFINISHED_AFTER_MS, type ConversionRecorder } from '../conversions/record-conversion';
import type { DeferredFraudCheckRepository } from '../fraud-check/deferred-fraud-check.repository';
import { conversionScore, referralScore, type FraudCheck } from '../fraud-check/fraud-check';
import type { FraudFlagRepository } from '../flags/fraud-flag.repository';
import type { FraudFlags } from '../flags/fraud-flags';
import type { PurchaseRewards } from '../purchases/purchase-rewards';
import type { PurchaseRepository } from '../purchases/purchase.repository';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { ReversalRepository } from '../reversals/reversal.repository';
import { REVERSAL_ABANDONED_AFTER_MS, type ConversionReversals } from '../reversals/reverse-conversion';

export type { RecoveryOptions };

/** The records the pass reads and changes. */
export interface RecoveryRepositories {
  deferredChecks: DeferredFraudCheckRepository;
  referrals: ReferralRepository;
  conversions: ConversionRepository;
  flags: FraudFlagRepository;
  purchases: PurchaseRepository;
  reversals: ReversalRepository;
}

/** The steps it finishes. */
export interface RecoverySteps {
  campaigns: Campaigns;
  fraud: FraudCheck;
  flags: FraudFlags;
  conversionRewards: ConversionRewards;
  recorder: ConversionRecorder;
  purchaseRewards: PurchaseRewards;
  reversals: ConversionReversals;
}

/**
 * Finishes what a request could not: scores referrals and conversions the
 * fraud service was down for (their rewards stay held until then), issues
 * and settles rewards the reward service failed (a conversion's, a later
 * purchase's), finishes reversals, and applies review decisions whose effects were interrupted. Every step is idempotent, so
 * each replica runs the pass; it works across apps (a system job), and
 * handles each record with that record's own appId.
 */
export class RecoveryPass extends PeriodicRecovery {
  private readonly reversalAbandonedAfterMs: number;

  constructor(
    private readonly stored: RecoveryRepositories,
    private readonly steps: RecoverySteps,
    logger: Logger,
    options: RecoveryOptions & { reversalAbandonedAfterMs?: number },
  ) {
    super(logger, options);
    this.reversalAbandonedAfterMs = options.reversalAbandonedAfterMs ?? REVERSAL_ABANDONED_AFTER_MS;
  }

  /** Set once every conversion rejected before REJECTED was a status reads REJECTED. */
  private rejectedMarked = false;

  async runOnce(): Promise<void> {
    if (!this.rejectedMarked) this.rejectedMarked = await this.markRejected();
    await this.scoreDeferred();
    await this.settleConversions();
    await this.finishPurchases();
    await this.finishReversals();
    await this.applyDecisions();
  }

  /**
   * Conversions rejected before REJECTED was a status of their own still
   * read FLAGGED and still count: they are marked REJECTED (a change the
   * rewards follow), which leaves them unsettled, so that the settle below
   * takes them out of the figures (ConversionRewards.uncountRejected) as
   * for a rejection today. True when none is left.
   */
  private async markRejected(): Promise<boolean> {
    const found = await this.stored.conversions.rejectedUnmarked(this.batchSize);
    for (const { appId, conversionId } of found) {
      await this.isolated({ conversionId }, () => this.steps.conversionRewards.changeState(appId, conversionId, 'rejectedUnmarked', { status: 'REJECTED' }));
    }
    return found.length === 0;
  }

  /** The queue of checks the fraud service could not answer; stops at the first still unanswered. */
  private async scoreDeferred(): Promise<void> {
    const waiting = await this.stored.deferredChecks.oldest(this.batchSize);
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
      await this.stored.deferredChecks.done(appId, item._id);
    }
  }

  /** False when the fraud service still cannot answer. */
  private async scoreReferral(appId: string, referralId: string): Promise<boolean> {
    const referral = await this.stored.referrals.findById(appId, referralId);
    if (!referral || referral.fraudCheck !== 'DEFERRED') return true;
    const campaign = await this.steps.campaigns.get(appId, referral.campaignId);
    const verdict = await this.steps.fraud.scoreReferral(referralScore(appId, referral, referral.context, campaign.fraud.flagThreshold));
    if (verdict.deferred) return false;
    await this.stored.referrals.update(appId, referral._id, { fraudCheck: 'DONE', context: null, isFlagged: verdict.flagged, fraud: verdict.fraud });
    if (verdict.flagged) await this.steps.flags.raiseForReferral(appId, { ...referral, isFlagged: true, fraud: verdict.fraud });
    return true;
  }

  private async scoreConversion(appId: string, conversionId: string): Promise<boolean> {
    const root = await this.stored.conversions.findById(appId, conversionId);
    if (!root || root.fraudCheck !== 'DEFERRED') return true;
    const [campaign, referral] = await Promise.all([this.steps.campaigns.get(appId, root.campaignId), this.stored.referrals.findById(appId, root.referralId)]);
    const verdict = await this.steps.fraud.scoreConversion(
      conversionScore(appId, root, referral?.referrerEmail, root.context, campaign.fraud.flagThreshold, root.convertedAt ?? root.lastEventAt),
    );
    if (verdict.deferred) return false;
    const { conversionRewards } = this.steps;
    if (verdict.flagged) {
      await this.steps.flags.raiseForConversion(appId, root, verdict.fraud);
      // Records whose conversion.created went out already announce the flag now; the others with it, once issued.
      await conversionRewards.changeState(
        appId,
        root.conversionId,
        'scoreDeferred',
        { status: 'FLAGGED', isFlagged: true, fraud: verdict.fraud, fraudCheck: 'DONE', review: 'OPEN', context: null },
        (after) => (after.rewardsIssuedAt !== null ? [conversionFlagged(after)] : []),
      );
    } else {
      await conversionRewards.changeState(appId, root.conversionId, 'scoreDeferred', { fraudCheck: 'DONE', context: null });
    }
    await conversionRewards.settle(appId, root.conversionId);
    return true;
  }

  /** Conversions whose rewards were not issued (or not brought in line) by the request that changed them. */
  private async settleConversions(): Promise<void> {
    const unsettled = await this.stored.conversions.unsettledBefore(new Date(Date.now() - UNFINISHED_AFTER_MS), this.batchSize);
    for (const root of unsettled) {
      await this.isolated({ conversionId: root.conversionId }, async () => {
        const { appId } = root;
        if (root.rewardsIssuedAt === null) {
          const [campaign, referral] = await Promise.all([this.steps.campaigns.get(appId, root.campaignId), this.stored.referrals.findById(appId, root.referralId)]);
          if (referral) await this.steps.recorder.complete(appId, root, referral, campaign);
        } else {
          await this.steps.conversionRewards.settle(appId, root.conversionId);
        }
      });
    }
  }

  /**
   * Purchases stored whose rewards were not issued and counted (the reward
   * service failed the request, or its process died): finished as a retry
   * of the request would (PurchaseRewards.finish, idempotent). After the
   * conversions, whose own rewards a purchase waits for.
   */
  private async finishPurchases(): Promise<void> {
    const unfinished = await this.stored.purchases.unissuedBefore(new Date(Date.now() - UNFINISHED_AFTER_MS), this.batchSize);
    for (const purchase of unfinished) {
      await this.isolated({ purchaseId: purchase._id }, () => this.steps.purchaseRewards.finish(purchase.appId, purchase));
    }
  }

  /** Reversals a request left PENDING: finished (or dropped, when their claim never happened and no longer fits: 422 had it been answered). */
  private async finishReversals(): Promise<void> {
    const pending = await this.stored.reversals.pendingBefore(new Date(Date.now() - this.reversalAbandonedAfterMs), this.batchSize);
    for (const reversal of pending) {
      await this.isolated({ reversalId: reversal._id }, () => this.steps.reversals.finish(reversal, false).catch((err: unknown) => (isDomainError(err) ? null : Promise.reject(err))));
    }
  }

  private async applyDecisions(): Promise<void> {
    const interrupted = await this.stored.flags.interruptedBefore(new Date(Date.now() - UNFINISHED_AFTER_MS), this.batchSize);
    for (const flag of interrupted) await this.isolated({ flagId: flag._id }, () => this.steps.flags.applyEffects(flag));
  }

  /** One record's failure (the reward service still down, say) is logged and does not stop the others. */
  private isolated(about: Record<string, string>, work: () => Promise<unknown>): Promise<void> {
    return recoverIsolated(this.logger, about, 'recovery of a record failed; will retry', work);
  }
}
