import { now } from '@ris/config';
import { conflict, notFound, refused } from '@ris/domain-errors';
import type { CampaignDoc } from '../campaigns/campaign.model';
import type { Campaigns } from '../campaigns/campaigns';
import type { ConversionReward } from '../conversions/conversion-rewards';
import type { ConversionDoc } from '../conversions/conversion.model';
import type { ConversionRepository } from '../conversions/conversion.repository';
import { checkSale } from '../conversions/sale-terms';
import { purchaseId } from './purchase-id';
import { stillEarns, type PurchaseRewards } from './purchase-rewards';
import type { PurchaseDoc } from './purchase.model';
import type { PurchaseRepository } from './purchase.repository';
import { checkPurchaseTiming } from './recurring-window';

export interface PurchaseInput {
  conversionId: string;
  /** The sale, more than 0 (checked at the edge). */
  amount: number;
  /** The currency the caller named for amount (null: none); it must be the campaign's. */
  currency: string | null;
  externalId: string | null;
  /** When the payment happened; null: now. */
  occurredAt: Date | null;
  /** From the request's Idempotency-Key (empty without one). */
  operationKey: string;
}

export interface PurchaseOutcome {
  purchase: PurchaseDoc;
  rewards: ConversionReward[];
  /** False when the purchase was recorded before (its externalId, or its operation): answered as it is. */
  created: boolean;
}

/**
 * The level-1 record of a conversion whose referee may still earn by
 * buying again: CONVERTED, or FLAGGED (its purchases' rewards then wait
 * for the review, as its own do). One rejected, not converted yet
 * (PENDING, CLICKED) or not a conversion's own record is refused.
 */
function purchasable(record: ConversionDoc | null, conversionId: string): ConversionDoc & { convertedAt: Date } {
  if (!record || record.level !== 1 || record._id !== record.conversionId) throw notFound('Conversion', { conversionId });
  if (record.status === 'REVERSED') {
    throw refused('CONVERSION_REVERSED', `Conversion ${conversionId} was reversed; its referee's purchases no longer earn.`, { conversionId });
  }
  if (!stillEarns(record) || record.convertedAt === null) {
    throw refused('NOT_CONVERTED', `Conversion ${conversionId} is ${record.status}: only a converted referee's purchases earn.`, {
      conversionId,
      status: record.status,
    });
  }
  return { ...record, convertedAt: record.convertedAt };
}

/** The campaign, if its conversions' later purchases earn (recurringMonths set): NOT_RECURRING otherwise. */
function recurring(campaign: CampaignDoc, conversionId: string): CampaignDoc & { recurringMonths: number } {
  if (campaign.recurringMonths === null) {
    throw refused('NOT_RECURRING', `Campaign ${campaign._id} is not recurring: only the conversion earns.`, { campaignId: campaign._id, conversionId });
  }
  return { ...campaign, recurringMonths: campaign.recurringMonths };
}

/**
 * POST /conversions/{conversionId}/purchases: a converted referee paid
 * again. Refusals come before anything is stored (the referee's purchase
 * can be sent again, corrected); then the purchase is stored under its
 * derived id (purchase-id.ts) and its rewards issued (PurchaseRewards). A
 * purchase recorded before, by its externalId or its operation, is
 * answered as it is (created false), finished first if a crash left it
 * unfinished, and never earns twice.
 */
export class PurchaseRecorder {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly conversions: ConversionRepository,
    private readonly campaigns: Campaigns,
    private readonly purchaseRewards: PurchaseRewards,
  ) {}

  async record(appId: string, input: PurchaseInput): Promise<PurchaseOutcome> {
    const id = purchaseId(appId, input.conversionId, input.externalId, input.operationKey);
    // A replay is answered with what was recorded, whatever changed since (the campaign, the clock): it is the same payment.
    const earlier = await this.purchases.findById(appId, id);
    if (earlier) return this.again(appId, earlier, input);

    const root = purchasable(await this.conversions.findById(appId, input.conversionId), input.conversionId);
    const campaign = recurring(await this.campaigns.get(appId, root.campaignId), input.conversionId);
    checkSale(campaign, { amount: input.amount, currency: input.currency });
    const occurredAt = input.occurredAt ?? now();
    checkPurchaseTiming({ conversionId: root.conversionId, convertedAt: root.convertedAt, recurringMonths: campaign.recurringMonths, occurredAt, now: now() });
    await this.purchaseRewards.issuedRecords(appId, root.conversionId);

    const { doc, created } = await this.purchases.insertPurchase(appId, {
      _id: id,
      conversionId: root.conversionId,
      campaignId: root.campaignId,
      refereeId: root.refereeId,
      amount: input.amount,
      currency: root.currency ?? campaign.currency,
      externalId: input.externalId,
      occurredAt,
      createdAt: new Date(),
      reversedAmount: 0,
      status: 'ACTIVE',
      rewardsIssuedAt: null,
      rewardsPending: true,
    });
    if (!created) return this.again(appId, doc, input);
    const issued = await this.purchaseRewards.finish(appId, doc);
    return { ...issued, created: true };
  }

  /** A purchase recorded before: finished if a crash left it so (idempotent), then answered with its rewards as they are. */
  private async again(appId: string, purchase: PurchaseDoc, input: PurchaseInput): Promise<PurchaseOutcome> {
    if (purchase.conversionId !== input.conversionId) {
      // Only an operation key can name another conversion's purchase (an externalId's id includes the conversion).
      throw conflict('IDEMPOTENCY_KEY_REUSED', 'This operation recorded a purchase of another conversion.', { conversionId: input.conversionId });
    }
    if (purchase.rewardsIssuedAt === null) return { ...(await this.purchaseRewards.finish(appId, purchase)), created: false };
    return { purchase, rewards: await this.purchaseRewards.issuedFor(appId, purchase), created: false };
  }
}
