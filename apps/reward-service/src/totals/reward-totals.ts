import type { RewardDoc, RewardStatusName } from '../rewards/reward.model';
import type { AmountsByStatus, RewardTotalsDoc } from './reward-totals.model';

const STATUS_KEY: Record<RewardStatusName, keyof AmountsByStatus> = {
  PENDING: 'pending',
  APPROVED: 'approved',
  PAID: 'paid',
  CANCELLED: 'cancelled',
};

export interface TotalsView {
  total: AmountsByStatus;
  levels: Array<{ level: number; amounts: AmountsByStatus }>;
  referee: AmountsByStatus;
}

/** One $inc of a totals document: the campaign's (userId '') or a user's. */
export interface TotalsIncrement {
  userId: string;
  inc: Record<string, number>;
}

/** Campaign ids hold no ':', so the key is unambiguous whatever the user id. */
export const totalsId = (campaignId: string, userId: string) => `${campaignId}:${userId}`;

const emptyAmounts = (): AmountsByStatus => ({ pending: 0, approved: 0, paid: 0, cancelled: 0, count: 0 });

function addInto(target: AmountsByStatus, source: Partial<AmountsByStatus> | undefined): void {
  if (!source) return;
  for (const key of Object.keys(target) as Array<keyof AmountsByStatus>) target[key] += source[key] ?? 0;
}

/**
 * What one reward's creation (from null) or move adds to the totals: the
 * campaign's document (userId '') and the user's, which also has the
 * reward's level (referrer side) or referee bucket. The rebuild sums the
 * same increments over every reward.
 */
export function totalsIncrements(
  reward: Pick<RewardDoc, 'userId' | 'side' | 'level' | 'amount' | 'earnedAmount'>,
  from: RewardStatusName | null,
  to: RewardStatusName,
): TotalsIncrement[] {
  // What reductions took off it (counted as cancelled when they happened): the rebuild's sum over a reward's life.
  const reduced = from === null ? Math.max(0, (reward.earnedAmount ?? reward.amount) - reward.amount) : 0;
  return perDocument(reward, (inc) => {
    if (from) inc[STATUS_KEY[from]] = -reward.amount;
    else inc.count = 1;
    inc[STATUS_KEY[to]] = reward.amount;
    if (reduced > 0) inc.cancelled = (inc.cancelled ?? 0) + reduced;
  });
}

/**
 * What a reduction of a reward by `taken` (a partial reversal) moves in the
 * totals: out of the status it was in (`status`), into cancelled, in the
 * campaign's document and the user's.
 */
export function reductionIncrements(reward: Pick<RewardDoc, 'userId' | 'side' | 'level'>, status: RewardStatusName, taken: number): TotalsIncrement[] {
  return perDocument(reward, (inc) => {
    inc[STATUS_KEY[status]] = -taken;
    inc.cancelled = (inc.cancelled ?? 0) + taken;
  });
}

/**
 * One change of a reward's amounts (`fill` writes it by field: pending,
 * cancelled, count…) as the $inc of the campaign's document (its total)
 * and of the user's (its total, and its level's or referee bucket).
 */
function perDocument(reward: Pick<RewardDoc, 'userId' | 'side' | 'level'>, fill: (inc: Record<string, number>) => void): TotalsIncrement[] {
  const change: Record<string, number> = {};
  fill(change);
  const bucket = (prefix: string, inc: Record<string, number>) => {
    for (const [field, amount] of Object.entries(change)) inc[`${prefix}.${field}`] = amount;
    return inc;
  };
  const userBucket = reward.side === 'REFERRER' ? `levels.L${reward.level}` : 'referee';
  return [
    { userId: '', inc: bucket('total', {}) },
    { userId: reward.userId, inc: bucket(userBucket, bucket('total', {})) },
  ];
}

/** The amounts of some totals documents summed: a campaign's, a user's in a campaign, or a user's over every campaign. */
export function totalsView(docs: RewardTotalsDoc[]): TotalsView {
  const view: TotalsView = { total: emptyAmounts(), levels: [], referee: emptyAmounts() };
  const levels = new Map<number, AmountsByStatus>();
  for (const doc of docs) {
    addInto(view.total, doc.total);
    addInto(view.referee, doc.referee);
    for (const [key, amounts] of Object.entries(doc.levels ?? {})) {
      const level = Number(key.slice(1));
      if (!levels.has(level)) levels.set(level, emptyAmounts());
      addInto(levels.get(level)!, amounts);
    }
  }
  view.levels = [...levels.entries()].sort(([a], [b]) => a - b).map(([level, amounts]) => ({ level, amounts }));
  return view;
}
