import type { ReferralStore } from '../referral-store';

export interface ReferrerStats {
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
export async function referrerStats(store: ReferralStore, appId: string, userId: string, campaignId?: string): Promise<ReferrerStats> {
  const filter = campaignId ? { referrerId: userId, campaignId } : { referrerId: userId };
  const [referrals, counters, clicks] = await Promise.all([
    store.referrals.count(appId, filter),
    store.counters.find(appId, filter),
    store.clicks.count(appId, filter),
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
