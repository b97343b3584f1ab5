import { currencyDigits } from '@ris/contracts';
import type { CampaignDoc, RuleTerms } from '../campaigns/campaign.model';

// What a reward rule pays on a sale (docs/product-decisions.md §3.8): the one
// computation of a reward's amount, for conversions and for later purchases.

/** A rule that pays a share of the sale (`percent`) rather than a fixed amount. */
export const isPercentRule = (rule: RuleTerms): boolean => rule.percent !== null && rule.percent !== undefined;

/** Whether any rule of the campaign (referrer, referee, a level) pays a share of the sale: its conversions need an amount. */
export function paysShareOfSale(campaign: Pick<CampaignDoc, 'referrerReward' | 'refereeReward' | 'levels'>): boolean {
  return [campaign.referrerReward, campaign.refereeReward, ...campaign.levels].some((rule) => rule !== null && isPercentRule(rule));
}

/**
 * A finite number as the decimal it is written as (the shortest text that
 * reads back as it, which is what was typed: 10.05, not the binary
 * 10.0500000000000007…): digits × 10^-scale.
 */
function asDecimal(value: number): { digits: bigint; scale: number } {
  const [mantissa, exponent = '0'] = String(Math.abs(value)).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * 10n ** BigInt(-scale), scale: 0 };
}

/**
 * `percent` % of `saleAmount` in whole minor units (`digits` decimals: the
 * cent for 2), rounded half away from zero: computed on the decimals as
 * written, so 1.005 at 100 % is 1.01 and 10.05 at 12.5 % is 1.26, where
 * binary floating point would land a cent below on some halves.
 */
function shareInMinorUnits(saleAmount: number, percent: number, digits: number): number {
  const sale = asDecimal(saleAmount);
  const share = asDecimal(percent);
  // sale × percent / 100, times 10^digits minor units per unit.
  const numerator = sale.digits * share.digits * 10n ** BigInt(digits);
  const denominator = 10n ** BigInt(sale.scale + share.scale + 2);
  const units = Number(numerator / denominator + (2n * (numerator % denominator) >= denominator ? 1n : 0n));
  return saleAmount < 0 && units !== 0 ? -units : units;
}

/**
 * What one rule pays on a sale of `saleAmount` in `currency` (the
 * conversion's or a purchase's amount, in the campaign's currency): a fixed
 * rule its amount, whatever the sale; a percentage rule `percent` % of the
 * sale, rounded to the currency's smallest unit (the cent of USD or EUR, a
 * whole yen) half away from zero, then capped by `maxAmount` (the cap
 * bounds its size, so a negative sale, a refund, is capped at −maxAmount).
 * A percentage of no amount is 0: the conversion path refuses such a sale
 * first (AMOUNT_REQUIRED), so this only answers what a campaign changed to
 * percentages after the sale was recorded would pay: nothing.
 */
export function ruleAmount(rule: RuleTerms, saleAmount: number | null, currency: string): number {
  if (!isPercentRule(rule)) return rule.amount;
  if (saleAmount === null || saleAmount === 0) return 0;
  const digits = currencyDigits(currency);
  const amount = shareInMinorUnits(saleAmount, rule.percent!, digits) / 10 ** digits;
  const cap = rule.maxAmount ?? null;
  return cap === null || Math.abs(amount) <= cap ? amount : Math.sign(amount) * cap;
}
