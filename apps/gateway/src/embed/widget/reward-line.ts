import type { WidgetStrings } from './strings';

/**
 * One reward of GET /embed/v1/referral (ReferralWidgetView). The currency,
 * holding period and reversal fields are optional: a gateway of an earlier
 * release answers without them (its rewards then read as plain numbers,
 * never held nor reversed).
 */
export interface WidgetReward {
  id: string;
  amount: number;
  currency?: string;
  fulfillmentType: string;
  status: 'PENDING' | 'APPROVED' | 'PAID' | 'CANCELLED';
  discountCode: string | null;
  expiresAt: string | null;
  availableAt?: string | null;
  reversedAmount?: number;
  reversalReason?: string | null;
  createdAt: string;
}

/** An amount in its currency as the user's language writes it (`$10.00`, `10,00 €`); a plain number without one. */
export function moneyText(amount: number, currency: string | undefined, lang: string): string {
  const plain = () => new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(amount);
  if (!currency) return plain();
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(amount);
  } catch {
    return `${plain()} ${currency}`;
  }
}

/** A date as the user's language writes it (`Dec 12, 2026`); '' for none. */
export const dateText = (iso: string | null | undefined, lang: string): string =>
  iso ? new Date(iso).toLocaleDateString(lang, { year: 'numeric', month: 'short', day: 'numeric' }) : '';

/** How a reward reads in the list: its amount, its status in words, and what the status alone does not say. */
export interface RewardLine {
  amount: string;
  status: string;
  /** The badge's class: its status's, or `reversed`. */
  tone: string;
  /** `Available on Dec 12, 2026` for a held reward, `Reduced by $2.50` for a partly reversed one (both: both); null otherwise. */
  note: string | null;
  /** Taken back whole by a reversal (a refund, a chargeback…): its amount struck through, its code no longer shown. */
  reversed: boolean;
}

export function rewardLine(reward: WidgetReward, s: WidgetStrings, lang: string, now: number = Date.now()): RewardLine {
  const amount = moneyText(reward.amount, reward.currency, lang);
  const taken = reward.reversedAmount ?? 0;
  // Only a reversal's cancellation reaches the widget; a paid reward keeps its amount, and one owed back whole is reversed too.
  const reversed = reward.status === 'CANCELLED' || (reward.status === 'PAID' && taken > 0 && taken >= reward.amount);
  if (reversed) return { amount, status: s.statusReversed, tone: 'reversed', note: null, reversed };
  const statuses: Record<string, string> = { PENDING: s.statusPending, APPROVED: s.statusApproved, PAID: s.statusPaid };
  // An approved reward whose code was claimed is one to use.
  const status = reward.status === 'APPROVED' && reward.discountCode ? s.statusReady : (statuses[reward.status] ?? reward.status);
  const held = reward.status === 'PENDING' && reward.availableAt && Date.parse(reward.availableAt) > now ? reward.availableAt : null;
  const notes = [taken > 0 && `${s.reducedBy} ${moneyText(taken, reward.currency, lang)}`, held && `${s.availableOn} ${dateText(held, lang)}`].filter(Boolean);
  return { amount, status, tone: reward.status.toLowerCase(), note: notes.length > 0 ? notes.join(' · ') : null, reversed };
}
