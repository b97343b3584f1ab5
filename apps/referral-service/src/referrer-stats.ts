import type { ReferralStore } from './referral-store';

export interface ReferrerStats {
  referrals: number;
  clicks: number;
  /** Referees converted through the user's own codes (level 1). */
  conversions: number;
  levels: Array<{ level: number; conversions: number }>;
}

/**
 * GET /users/{userId}/stats, referral side: the user's referrals (one per
 * campaign) and their counters documents, kept on write; never their
 * clicks or conversions.
 */
export async function referrerStats(store: ReferralStore, appId: string, userId: string, campaignId?: string): Promise<ReferrerStats> {
  const filter = campaignId ? { referrerId: userId, campaignId } : { referrerId: userId };
  const [referrals, counters] = await Promise.all([store.referrals.count(appId, filter), store.counters.find(appId, filter)]);
  const byLevel = new Map<number, number>();
  let clicks = 0;
  for (const counter of counters) {
    clicks += counter.clicks ?? 0;
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
