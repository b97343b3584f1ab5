import { refused } from '@ris/domain-errors';
import type { CampaignDoc } from '../campaigns/campaign.model';
import { paysShareOfSale } from './commission';

/** What a sale (a conversion, a later purchase) says of its value: its amount and, if the caller named it, its currency. */
export interface Sale {
  amount: number | null;
  currency: string | null;
}

/**
 * Refuses, before anything is stored, a sale the campaign cannot reward as
 * sent (docs/product-decisions.md §3.7, §3.8): one in another currency than
 * the campaign's (CURRENCY_MISMATCH: amounts are never converted), and one
 * without an amount when a rule of the campaign pays a share of it
 * (AMOUNT_REQUIRED: a percentage of nothing would silently pay nothing).
 */
export function checkSale(campaign: Pick<CampaignDoc, '_id' | 'currency' | 'referrerReward' | 'refereeReward' | 'levels'>, sale: Sale): void {
  if (sale.currency !== null && sale.currency !== campaign.currency) {
    throw refused('CURRENCY_MISMATCH', `Campaign ${campaign._id} pays in ${campaign.currency}; the amount was sent in ${sale.currency}.`, {
      campaignId: campaign._id,
      currency: sale.currency,
      campaignCurrency: campaign.currency,
    });
  }
  if (sale.amount === null && paysShareOfSale(campaign)) {
    throw refused('AMOUNT_REQUIRED', `Campaign ${campaign._id} pays a percentage of the sale: send its amount.`, { campaignId: campaign._id });
  }
}
