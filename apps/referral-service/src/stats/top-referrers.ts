import { refused } from '@ris/domain-errors';
import type { ConversionRepository } from '../conversions/conversion.repository';

export type TopReferrersOrder = 'CONVERSIONS' | 'REWARD_VALUE';

export interface TopReferrer {
  userId: string;
  /** Level-1 conversions credited to the referrer in the period. */
  conversions: number;
  /** The referrer's rewards of the period's conversions, every level. */
  rewardValue: number;
}

/** Most referrers one answer names. */
export const MAX_TOP_REFERRERS = 100;
/** The longest period summed: a year (its conversions are read one by one). */
export const MAX_PERIOD_DAYS = 366;
const DAY_MS = 86_400_000;

/**
 * The referrers of a period, best first: summed from the conversion records
 * converted in it (counted ones: a rejected conversion earns nobody a
 * place), read through an index on the conversion time. Ties go to the
 * user id, so a page reads the same every time.
 */
export class TopReferrers {
  constructor(private readonly conversions: ConversionRepository) {}

  async of(appId: string, period: { from: Date; to: Date; campaignId?: string }, order: TopReferrersOrder, limit: number): Promise<TopReferrer[]> {
    // 422, as every range of the API: a schema cannot compare two fields.
    if (period.to <= period.from) throw refused('INVALID_RANGE', 'to must be after from', { field: 'to' });
    if (period.to.getTime() - period.from.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
      throw refused('INVALID_RANGE', `the period is at most ${MAX_PERIOD_DAYS} days`, { field: 'from' });
    }
    const byUser = new Map<string, TopReferrer>();
    for await (const record of this.conversions.convertedBetween(appId, period.from, period.to, period.campaignId)) {
      const entry = byUser.get(record.referrerId) ?? { userId: record.referrerId, conversions: 0, rewardValue: 0 };
      if (record.level === 1) entry.conversions += 1;
      entry.rewardValue += record.rewardAmount;
      byUser.set(record.referrerId, entry);
    }
    const key = (r: TopReferrer) => (order === 'CONVERSIONS' ? [r.conversions, r.rewardValue] : [r.rewardValue, r.conversions]);
    return [...byUser.values()]
      .sort((a, b) => {
        const [a1, a2] = key(a);
        const [b1, b2] = key(b);
        return b1 - a1 || b2 - a2 || (a.userId < b.userId ? -1 : 1);
      })
      .slice(0, Math.min(limit, MAX_TOP_REFERRERS))
      .map((r) => ({ ...r, rewardValue: Math.round(r.rewardValue * 100) / 100 }));
  }
}
