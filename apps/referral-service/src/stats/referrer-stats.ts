import type { Campaigns } from '../campaigns/campaigns';
import type { ClickRepository } from '../clicks/click.repository';
import type { ReferralCountersRepository } from '../referrals/referral-counters.repository';
import type { ReferralRepository } from '../referrals/referral.repository';

export interface ReferrerFigures {
  referrals: number;
  clicks: number;
  /** Referees converted through the user's own codes (level 1). */
  conversions: number;
  levels: Array<{ level: number; conversions: number }>;
}

/**
 * GET /users/{userId}/stats, referral side: the user's referrals (one per
 * campaign) and their counters documents (conversions by level, kept on
 * write), and their clicks counted by index (not kept as a counter: see
 * ClickRecorder). Never a scan of the campaign.
 */
export class ReferrerStats {
  constructor(
    private readonly referrals: ReferralRepository,
    private readonly counters: ReferralCountersRepository,
    private readonly clicks: ClickRepository,
    private readonly campaigns: Campaigns,
  ) {}

  /** In one campaign (which must be the app's) or in all. */
  async of(appId: string, userId: string, campaignId?: string): Promise<ReferrerFigures> {
    if (campaignId) await this.campaigns.get(appId, campaignId);
    const [referrals, counters, clicks] = await Promise.all([
      this.referrals.countOfReferrer(appId, userId, campaignId),
      this.counters.ofReferrer(appId, userId, campaignId),
      this.clicks.countOfReferrer(appId, userId, campaignId),
    ]);
    const byLevel = new Map<number, number>();
    for (const counter of counters) {
      for (const [key, count] of Object.entries(counter.conversions ?? {})) {
        const level = Number(key.slice(1));
        byLevel.set(level, (byLevel.get(level) ?? 0) + count);
      }
    }
    return {
      referrals,
      clicks,
      conversions: byLevel.get(1) ?? 0,
      levels: [...byLevel.entries()].sort(([a], [b]) => a - b).map(([level, conversions]) => ({ level, conversions })),
    };
  }
}
