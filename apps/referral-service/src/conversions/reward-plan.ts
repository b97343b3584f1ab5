import type { CampaignDoc, RuleTerms } from '../campaigns/campaign.model';
import { isPercentRule, ruleAmount } from './commission';
import type { ConversionDoc } from './conversion.model';

export interface RewardGrant {
  side: 'REFERRER' | 'REFEREE';
  level: number;
  userId: string;
  referralId: string;
  amount: number;
  /** ISO 4217 code of amount: the campaign's. */
  currency: string;
  fulfillmentType: string;
  /**
   * The rule pays a share of the sale (a percentage): the reward service then
   * reduces the reward in proportion to a partial reversal of the sale, where
   * a fixed amount is only taken back by a full one.
   */
  shareOfSale: boolean;
}

const NO_REWARD: RuleTerms = { amount: 0 };

/** The rule of the referrer `level` steps above the referee (level 1: referrerReward); none pays nothing. */
export function levelRule(campaign: Pick<CampaignDoc, 'referrerReward' | 'levels'>, level: number): RuleTerms {
  if (level === 1) return campaign.referrerReward;
  return campaign.levels.find((l) => l.level === level) ?? NO_REWARD;
}

/** Amount the campaign pays the referrer `level` steps above the referee on a sale of `saleAmount` (ruleAmount). */
export function levelAmount(campaign: Pick<CampaignDoc, 'referrerReward' | 'levels' | 'currency'>, level: number, saleAmount: number | null): number {
  return ruleAmount(levelRule(campaign, level), saleAmount, campaign.currency);
}

/** The deepest level the campaign pays (1 when it configures no levels). */
export function deepestLevel(campaign: Pick<CampaignDoc, 'levels'>): number {
  return campaign.levels.reduce((deepest, l) => Math.max(deepest, l.level), 1);
}

/**
 * The rewards one sale earns: each record's referrer at that level's rule
 * (level rewards use the referrer reward's fulfillment type), and the
 * referee on a double-sided campaign, each amount from ruleAmount (a fixed
 * amount, or a share of `saleAmount`: the conversion's amount, or a later
 * purchase's). Nothing for a zero amount or a conversion outside the
 * attribution window.
 */
export function planRewards(
  campaign: Pick<CampaignDoc, 'referrerReward' | 'refereeReward' | 'levels' | 'currency'>,
  records: ReadonlyArray<Pick<ConversionDoc, 'level' | 'referrerId' | 'refereeId' | 'referralId' | 'attributed'>>,
  saleAmount: number | null,
): RewardGrant[] {
  const root = records.find((r) => r.level === 1);
  if (!root?.attributed) return [];
  const grants: RewardGrant[] = [];
  for (const record of [...records].sort((a, b) => a.level - b.level)) {
    const rule = levelRule(campaign, record.level);
    const amount = ruleAmount(rule, saleAmount, campaign.currency);
    if (amount > 0) {
      grants.push({
        side: 'REFERRER',
        level: record.level,
        userId: record.referrerId,
        referralId: record.referralId,
        amount,
        currency: campaign.currency,
        fulfillmentType: campaign.referrerReward.fulfillmentType,
        shareOfSale: isPercentRule(rule),
      });
    }
  }
  const refereeAmount = campaign.refereeReward ? ruleAmount(campaign.refereeReward, saleAmount, campaign.currency) : 0;
  if (campaign.refereeReward && refereeAmount > 0) {
    grants.push({
      side: 'REFEREE',
      level: 1,
      userId: root.refereeId,
      referralId: root.referralId,
      amount: refereeAmount,
      currency: campaign.currency,
      fulfillmentType: campaign.refereeReward.fulfillmentType,
      shareOfSale: isPercentRule(campaign.refereeReward),
    });
  }
  return grants;
}
