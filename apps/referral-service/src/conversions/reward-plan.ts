import type { CampaignDoc } from '../campaigns/campaign.model';
import type { ConversionDoc } from './conversion.model';

export interface RewardGrant {
  side: 'REFERRER' | 'REFEREE';
  level: number;
  userId: string;
  referralId: string;
  amount: number;
  fulfillmentType: string;
}

/** Amount the campaign pays the referrer `level` steps above the referee (level 1: referrerReward). */
export function levelAmount(campaign: Pick<CampaignDoc, 'referrerReward' | 'levels'>, level: number): number {
  if (level === 1) return campaign.referrerReward.amount;
  return campaign.levels.find((l) => l.level === level)?.amount ?? 0;
}

/** The deepest level the campaign pays (1 when it configures no levels). */
export function deepestLevel(campaign: Pick<CampaignDoc, 'levels'>): number {
  return campaign.levels.reduce((deepest, l) => Math.max(deepest, l.level), 1);
}

/**
 * The rewards one conversion earns: each record's referrer at that level's
 * amount (level rewards use the referrer reward's fulfillment type), and
 * the referee on a double-sided campaign. Nothing for a zero amount or a
 * conversion outside the attribution window.
 */
export function planRewards(
  campaign: Pick<CampaignDoc, 'referrerReward' | 'refereeReward' | 'levels'>,
  records: ReadonlyArray<Pick<ConversionDoc, 'level' | 'referrerId' | 'refereeId' | 'referralId' | 'attributed'>>,
): RewardGrant[] {
  const root = records.find((r) => r.level === 1);
  if (!root?.attributed) return [];
  const grants: RewardGrant[] = [];
  for (const record of [...records].sort((a, b) => a.level - b.level)) {
    const amount = levelAmount(campaign, record.level);
    if (amount > 0) {
      grants.push({
        side: 'REFERRER',
        level: record.level,
        userId: record.referrerId,
        referralId: record.referralId,
        amount,
        fulfillmentType: campaign.referrerReward.fulfillmentType,
      });
    }
  }
  if (campaign.refereeReward && campaign.refereeReward.amount > 0) {
    grants.push({
      side: 'REFEREE',
      level: 1,
      userId: root.refereeId,
      referralId: root.referralId,
      amount: campaign.refereeReward.amount,
      fulfillmentType: campaign.refereeReward.fulfillmentType,
    });
  }
  return grants;
}
