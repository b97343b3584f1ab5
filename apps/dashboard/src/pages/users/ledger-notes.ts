import type { IncentiveTransaction } from '../../api/types';
import { formatAmounts } from '../../ui/format';
import { boostText } from '../incentives/boosts/boost-request';

type Noted = Pick<IncentiveTransaction, 'boost' | 'streak'> & Partial<Pick<IncentiveTransaction, 'pendingCoins' | 'pendingTokens' | 'debt' | 'debtRepaid'>>;

/** Coins and tokens in words, the zeros left out (`30 coins · 2 tokens`; signed: `+50 coins`). */
const coinsAndTokens = (amounts: { coins: number; tokens: number }, signed = false) => formatAmounts({ coins: amounts.coins, xp: 0, tokens: amounts.tokens }, { signed });

/**
 * What else a ledger entry says of how it came about, in words: the boost
 * that multiplied it (`×2 Double weekend`), the streak length that paid
 * it (`streak daily · 7`), the change of the pending coins and tokens
 * (`pending +50 coins`: a pending credit; −: its release or cancellation),
 * what an event reversal left owed (`debt 30 coins`) and what of a credit
 * repaid a debt (`debt repaid 20 coins`); empty when none.
 */
export function ledgerNotes(entry: Noted): string[] {
  const pending = { coins: entry.pendingCoins ?? 0, tokens: entry.pendingTokens ?? 0 };
  return [
    entry.boost ? boostText(entry.boost) : null,
    entry.streak ? `streak ${entry.streak.key} · ${entry.streak.length}` : null,
    pending.coins !== 0 || pending.tokens !== 0 ? `pending ${coinsAndTokens(pending, true)}` : null,
    entry.debt && (entry.debt.coins > 0 || entry.debt.tokens > 0) ? `debt ${coinsAndTokens(entry.debt)}` : null,
    entry.debtRepaid && (entry.debtRepaid.coins > 0 || entry.debtRepaid.tokens > 0) ? `debt repaid ${coinsAndTokens(entry.debtRepaid)}` : null,
  ].filter((n): n is string => n !== null);
}

/** The colour of a note's badge: a boost, a streak, a pending change, a debt, a debt repaid. */
export function ledgerNoteColor(note: string): string {
  if (note.startsWith('×')) return 'grape';
  if (note.startsWith('pending')) return 'yellow';
  if (note.startsWith('debt repaid')) return 'teal';
  if (note.startsWith('debt')) return 'red';
  return 'orange';
}
