import { currencyDigits, type RewardReversal, type RewardService, type ServiceCalls, RewardSide, enumName } from '@ris/contracts';
import { conflict, notFound, refused } from '@ris/domain-errors';
import { idFromOperation, newId, type OnceMarkers } from '@ris/mongo';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { ConversionRepository } from '../conversions/conversion.repository';
import { NOT_CONVERTED } from '../conversions/conversion-status';
import type { RewardValueCounts } from '../conversions/reward-value-counts';
import type { PurchaseDoc } from '../purchases/purchase.model';
import type { PurchaseRepository } from '../purchases/purchase.repository';
import type { CampaignStats } from '../stats/campaign-stats';
import { conversionReversed } from './reversal-events';
import type { ReversalDoc, ReversalReasonName, ReversedRewardDoc } from './reversal.model';
import type { ReversalRepository } from './reversal.repository';

export interface ReversalRequest {
  conversionId: string;
  purchaseId: string | null;
  reason: ReversalReasonName;
  /** null: all that is left of the sale. */
  amount: number | null;
  note: string | null;
  operationKey: string;
}

export interface ReversalOutcome {
  reversal: ReversalDoc;
  /** The level-1 record after it. */
  conversion: ConversionDoc;
  rewards: RewardReversal[];
  /** False: a retry, or a full reversal of what was reversed in full already (nothing changed). */
  created: boolean;
}

/** The sale a reversal applies to: the conversion's own, or one purchase. */
interface Sale {
  amount: number | null;
  reversed: number;
  /** Reversed in full already. */
  done: boolean;
  reversalIds: string[];
  log: Array<{ id: string; after: number }>;
}

const saleOfConversion = (root: ConversionDoc): Sale => ({
  amount: root.amount,
  reversed: root.reversedAmount ?? 0,
  done: Boolean(root.reversedAt),
  reversalIds: root.reversalIds ?? [],
  log: root.reversalLog ?? [],
});

const saleOfPurchase = (purchase: PurchaseDoc): Sale => ({
  amount: purchase.amount,
  reversed: purchase.reversedAmount,
  done: purchase.status === 'REVERSED',
  reversalIds: purchase.reversalIds ?? [],
  log: purchase.reversalLog ?? [],
});

/** `value` in whole minor units of the currency (amounts are compared in them, never as binary fractions). */
const minorUnits = (value: number, currency: string) => Math.round(value * 10 ** currencyDigits(currency));

// A sale is claimed by a handful of reversals at most; more tries than this is a bug, not contention.
const MAX_CLAIMS = 20;
// A reversal normally finishes within its request; one PENDING this long lost its process.
export const REVERSAL_ABANDONED_AFTER_MS = 30_000;

/**
 * Reversals of conversions and purchases (product decisions §3.10): the
 * sale's reversed amount claimed under a condition (never past the sale,
 * whatever runs concurrently), the rewards reversed by the reward service
 * (each once per reversal), the figures counted once, conversion.reversed
 * written with the reversal's last update. A crash anywhere leaves a
 * PENDING reversal the recovery pass finishes (finish()).
 */
export class ConversionReversals {
  constructor(
    private readonly conversions: ConversionRepository,
    private readonly purchases: PurchaseRepository,
    private readonly reversals: ReversalRepository,
    private readonly rewards: ServiceCalls<typeof RewardService>,
    private readonly values: RewardValueCounts,
    private readonly stats: CampaignStats,
    private readonly once: OnceMarkers,
  ) {}

  async reverse(appId: string, request: ReversalRequest): Promise<ReversalOutcome> {
    const root = await this.root(appId, request.conversionId);
    if (NOT_CONVERTED.includes(root.status) || root.status === 'REJECTED') {
      throw refused('NOT_CONVERTED', `Conversion ${root._id} is ${root.status}: only a converted sale can be reversed.`, { conversionId: root._id, status: root.status });
    }
    const purchase = request.purchaseId ? await this.purchase(appId, root, request.purchaseId) : null;
    // Its rewards not issued yet (a request cut short; the recovery pass issues them): a reversal now would miss them.
    if (root.rewardsIssuedAt === null || purchase?.rewardsPending) {
      throw conflict('CONFLICT', 'The rewards of this sale are still being issued; retry in a few seconds.', { conversionId: root._id });
    }
    const id = request.operationKey ? idFromOperation('rvs', request.operationKey) : newId('rvs');
    const earlier = await this.reversals.findById(appId, id);
    if (earlier) return this.finish(earlier, false);
    const sale = purchase ? saleOfPurchase(purchase) : saleOfConversion(root);
    const currency = purchase?.currency ?? root.currency ?? 'USD';
    if (sale.done) {
      if (request.amount !== null) throw exceeds(0, currency);
      // Reversed in full already: the first full reversal is the answer, and nothing changes.
      const first = await this.reversals.fullOf(appId, root._id, purchase?._id ?? null);
      if (first) return this.finish(first, false);
    }
    const { amount, full } = this.portion(sale, request.amount, currency);
    const { doc, created } = await this.reversals.begin(appId, {
      _id: id,
      conversionId: root._id,
      purchaseId: purchase?._id ?? null,
      campaignId: root.campaignId,
      referralId: root.referralId,
      referrerId: root.referrerId,
      refereeId: root.refereeId,
      reason: request.reason,
      amount,
      full,
      note: request.note,
      currency,
      saleAmount: sale.amount,
      remainingShare: null,
      status: 'PENDING',
      rewards: [],
      rewardAmountReversed: 0,
      clawbackAmount: 0,
      createdAt: new Date(),
      appliedAt: null,
    });
    return this.finish(doc, created);
  }

  /**
   * Takes a reversal from wherever it stopped to APPLIED: claims the sale
   * (unless it holds the reversal already), reverses the rewards, counts
   * the figures once, marks it applied with its events. A claim that no
   * longer fits (another reversal took what was left meanwhile) drops the
   * intent and answers 422 as a request made now would.
   */
  async finish(reversal: ReversalDoc, created: boolean): Promise<ReversalOutcome> {
    const { appId } = reversal;
    if (reversal.status === 'APPLIED') return { reversal, conversion: await this.root(appId, reversal.conversionId), rewards: await this.reverseRewardsOf(reversal, reversal.remainingShare ?? 0), created };
    const remainingShare = await this.claim(reversal);
    if (remainingShare === ALREADY_FULL) {
      // Another full reversal of the sale won the race: it is the answer, and this one never happened.
      const first = await this.reversals.fullOf(appId, reversal.conversionId, reversal.purchaseId);
      if (first && first._id !== reversal._id) return this.finish(first, false);
      throw exceeds(0, reversal.currency);
    }
    const reversed = await this.reverseRewardsOf(reversal, remainingShare);
    const rewards: ReversedRewardDoc[] = reversed.map((r) => ({
      rewardId: r.reward?.id ?? '',
      userId: r.reward?.userId ?? '',
      side: enumName(RewardSide, r.reward?.side ?? RewardSide.REFERRER) === 'REFEREE' ? 'REFEREE' : 'REFERRER',
      level: r.reward?.level ?? 1,
      effect: r.effect,
      from: r.fromAmount,
      to: r.toAmount,
      clawback: r.clawbackAmount,
    }));
    const rewardAmountReversed = rewards.filter((r) => r.effect === 'REDUCED' || r.effect === 'CANCELLED').reduce((sum, r) => sum + (r.from - r.to), 0);
    const clawbackAmount = rewards.reduce((sum, r) => sum + r.clawback, 0);
    await this.count(reversal, rewards);
    if (reversal.full && reversal.purchaseId === null) await this.conversions.markUplineReversed(appId, reversal.conversionId);
    const outcome = { rewards, rewardAmountReversed: round(rewardAmountReversed, reversal.currency), clawbackAmount: round(clawbackAmount, reversal.currency) };
    const records = await this.conversions.recordsOf(appId, reversal.conversionId);
    const saleReversed = await this.saleReversed(reversal);
    const events = records.map((record) => conversionReversed({ ...reversal, ...outcome, appliedAt: new Date() }, record, saleReversed));
    const applied = (await this.reversals.applied(reversal, outcome, events)) ?? (await this.reversals.findById(appId, reversal._id)) ?? { ...reversal, ...outcome, status: 'APPLIED' as const };
    return { reversal: applied, conversion: await this.root(appId, reversal.conversionId), rewards: reversed, created };
  }

  /**
   * The reward service's ReverseRewards for this reversal: what it did to
   * each reward of the sale. Asking again is harmless (each reward holds the
   * reversal already and answers what it did), so a retry of an applied
   * reversal asks again for its answer.
   */
  private async reverseRewardsOf(reversal: ReversalDoc, remainingShare: number): Promise<RewardReversal[]> {
    const res = await this.rewards.reverseRewards({
      appId: reversal.appId,
      conversionId: reversal.conversionId,
      purchaseId: reversal.purchaseId ?? undefined,
      reversalId: reversal._id,
      remainingShare,
      full: reversal.full,
      reason: reversal.reason,
      note: reversal.note ?? undefined,
    });
    return res.reversals;
  }

  /** What is reversed now: `requested` (null: all that is left), and whether that is all that is left. */
  private portion(sale: Sale, requested: number | null, currency: string): { amount: number; full: boolean } {
    const left = sale.amount === null ? 0 : minorUnits(sale.amount, currency) - minorUnits(sale.reversed, currency);
    if (requested === null) return { amount: sale.amount === null ? 0 : round(left / 10 ** currencyDigits(currency), currency), full: true };
    if (sale.amount === null) {
      throw refused('AMOUNT_NOT_REVERSIBLE', 'This conversion was recorded without an amount: only a full reversal (without amount) applies to it.', {});
    }
    const wanted = minorUnits(requested, currency);
    if (wanted <= 0) throw refused('AMOUNT_NOT_REVERSIBLE', `amount is less than the smallest unit of ${currency}.`, { currency });
    if (wanted > left) throw exceeds(left / 10 ** currencyDigits(currency), currency);
    return { amount: round(requested, currency), full: wanted === left };
  }

  /**
   * The sale's claim for this reversal (once), and the share of the sale
   * left standing after it, from the sale's own log: the same answer on
   * every try, whatever was claimed after.
   */
  private async claim(reversal: ReversalDoc): Promise<number | typeof ALREADY_FULL> {
    const { appId } = reversal;
    for (let attempt = 0; attempt < MAX_CLAIMS; attempt += 1) {
      const sale = await this.sale(reversal);
      const logged = sale.log.find((e) => e.id === reversal._id);
      if (logged || sale.reversalIds.includes(reversal._id)) return reversal.remainingShare ?? shareLeft(sale.amount, logged?.after ?? sale.reversed, reversal.full);
      const fits = sale.done
        ? false
        : reversal.full
          ? true
          : sale.amount !== null && minorUnits(sale.reversed + reversal.amount, reversal.currency) <= minorUnits(sale.amount, reversal.currency);
      if (!fits) {
        await this.reversals.drop(appId, reversal._id);
        if (reversal.full && sale.done) return ALREADY_FULL;
        throw exceeds(sale.amount === null || sale.done ? 0 : round(sale.amount - sale.reversed, reversal.currency), reversal.currency);
      }
      // A full reversal takes what is left now (another partial one may have landed since it was asked).
      const amount = reversal.full ? round((sale.amount ?? 0) - sale.reversed, reversal.currency) : reversal.amount;
      const full = reversal.full || (sale.amount !== null && minorUnits(sale.reversed + amount, reversal.currency) === minorUnits(sale.amount, reversal.currency));
      // One claim of the conversion's sales at a time in this process, after its other writes: FerretDB v1 runs a
      // conditional update as a read and a write, so two claims at once could both pass the condition (two full
      // reversals of one sale both applied and counted) or undo a write beside them (ConversionRepository.serially).
      const claimed = await this.conversions.serially(appId, reversal.conversionId, async () =>
        reversal.purchaseId
          ? (await this.purchases.claimReversal(appId, { _id: reversal.purchaseId, reversedAmount: sale.reversed }, { id: reversal._id, amount, full })) !== null
          : (await this.conversions.claimReversal(appId, { _id: reversal.conversionId, reversedAmount: sale.reversed }, { id: reversal._id, amount, full, at: new Date() })) !== null,
      );
      if (claimed) {
        const remainingShare = shareLeft(sale.amount, round(sale.reversed + amount, reversal.currency), full);
        Object.assign(reversal, { amount, full, remainingShare });
        await this.reversals.settleTerms(appId, reversal._id, { amount, full, remainingShare });
        return remainingShare;
      }
    }
    throw new Error(`reversal ${reversal._id} could not claim its sale: it kept changing`);
  }

  /** The figures of the reversal, once (a marker): the reversal counted, and the reward value it took off each reward. */
  private async count(reversal: ReversalDoc, rewards: ReversedRewardDoc[]): Promise<void> {
    if (!(await this.once.first(reversal.appId, `reversal-counted:${reversal._id}`))) return;
    await Promise.all([
      this.stats.count(reversal.appId, reversal.campaignId, { totalReversals: 1 }, reversal.createdAt),
      ...rewards.map((r) =>
        this.values.taken(
          reversal.appId,
          { conversionId: reversal.conversionId, campaignId: reversal.campaignId, referralId: reversal.referralId, userId: r.userId, side: r.side, level: r.level },
          r.effect === 'CLAWBACK' ? r.clawback : r.from - r.to,
        ),
      ),
    ]);
  }

  private async saleReversed(reversal: ReversalDoc): Promise<number> {
    return (await this.sale(reversal)).reversed;
  }

  private async sale(reversal: ReversalDoc): Promise<Sale> {
    if (reversal.purchaseId) {
      const purchase = await this.purchases.findById(reversal.appId, reversal.purchaseId);
      if (!purchase) throw notFound('Purchase', { purchaseId: reversal.purchaseId });
      return saleOfPurchase(purchase);
    }
    return saleOfConversion(await this.root(reversal.appId, reversal.conversionId));
  }

  private async root(appId: string, conversionId: string): Promise<ConversionDoc> {
    const root = await this.conversions.findById(appId, conversionId);
    if (!root || root.level !== 1) throw notFound('Conversion', { conversionId });
    return root;
  }

  private async purchase(appId: string, root: ConversionDoc, purchaseId: string): Promise<PurchaseDoc> {
    const purchase = await this.purchases.findById(appId, purchaseId);
    if (!purchase || purchase.conversionId !== root._id) throw notFound('Purchase', { purchaseId });
    return purchase;
  }
}

/** claim()'s answer when the sale was reversed in full by another reversal before this one claimed it. */
const ALREADY_FULL = 'ALREADY_FULL' as const;

const round = (value: number, currency: string) => minorUnits(value, currency) / 10 ** currencyDigits(currency);

/** The share of the sale standing once `reversedAfter` of it is reversed (0 after a full reversal, or for a sale without an amount). */
function shareLeft(saleAmount: number | null, reversedAfter: number, full: boolean): number {
  if (full || saleAmount === null || saleAmount <= 0) return 0;
  return Math.max(0, Math.min(1, (saleAmount - reversedAfter) / saleAmount));
}

const exceeds = (left: number, currency: string) =>
  refused('REVERSAL_EXCEEDS_SALE', `Only ${left} ${currency} of this sale is left to reverse.`, { remaining: left, currency });
