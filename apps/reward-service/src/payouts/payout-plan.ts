import { currencyDigits } from '@ris/contracts';

/** A payable reward or an owed clawback, as a payout counts it. */
export interface PayoutItem {
  id: string;
  userId: string;
  currency: string;
  amount: number;
}

/** What one referrer is due in one currency: the rewards less the clawbacks. */
export interface PayoutDueFigures {
  userId: string;
  currency: string;
  rewards: PayoutItem[];
  clawbacks: PayoutItem[];
  rewardsAmount: number;
  clawbacksAmount: number;
  amount: number;
  /** amount > 0 and at least the minimum: a payout is made of it. */
  payable: boolean;
}

/**
 * Sums amounts in the currency's smallest unit (whole cents), so 0.1 + 0.2
 * is 0.3 and a thousand rewards add up to what a bank statement says.
 */
export function sumAmounts(amounts: readonly number[], currency: string): number {
  const factor = 10 ** currencyDigits(currency);
  return amounts.reduce((sum, a) => sum + Math.round(a * factor), 0) / factor;
}

/**
 * What each referrer is due per currency (product decisions §3.12): every
 * payable reward less every owed clawback of theirs in that currency;
 * payable when that is more than 0 and reaches `minimum`. A referrer who
 * owes more than they earned is listed (amount ≤ 0, not payable): their
 * clawbacks wait for later rewards. Largest amount first, then by user.
 */
export function planPayouts(rewards: readonly PayoutItem[], clawbacks: readonly PayoutItem[], minimum = 0): PayoutDueFigures[] {
  const groups = new Map<string, { userId: string; currency: string; rewards: PayoutItem[]; clawbacks: PayoutItem[] }>();
  const group = (item: PayoutItem) => {
    const key = `${item.userId}\u0000${item.currency}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { userId: item.userId, currency: item.currency, rewards: [], clawbacks: [] }));
    return g;
  };
  for (const r of rewards) group(r).rewards.push(r);
  for (const c of clawbacks) group(c).clawbacks.push(c);
  return [...groups.values()]
    .filter((g) => g.rewards.length > 0 || g.clawbacks.length > 0)
    .map((g) => figures(g.userId, g.currency, g.rewards, g.clawbacks, minimum))
    .sort((a, b) => b.amount - a.amount || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : a.currency < b.currency ? -1 : 1));
}

/** The figures of one referrer's rewards and clawbacks in one currency. */
export function figures(userId: string, currency: string, rewards: PayoutItem[], clawbacks: PayoutItem[], minimum = 0): PayoutDueFigures {
  const rewardsAmount = sumAmounts(rewards.map((r) => r.amount), currency);
  const clawbacksAmount = sumAmounts(clawbacks.map((c) => c.amount), currency);
  const amount = sumAmounts([rewardsAmount, -clawbacksAmount], currency);
  return { userId, currency, rewards, clawbacks, rewardsAmount, clawbacksAmount, amount, payable: amount > 0 && amount >= minimum };
}
