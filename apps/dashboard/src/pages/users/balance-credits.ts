import type { ExpiringCredit, IncentiveBalance } from '../../api/types';
import { formatAmounts, formatDateTime, formatNumber } from '../../ui/format';

/** One of the next expiries in words: `50 coins expire on 2026-12-01 00:00:00` (the operator's time), `1 token expires on …`. */
export function expiringText(credit: ExpiringCredit): string {
  const one = credit.amount === 1;
  const unit = credit.currency === 'COINS' ? (one ? 'coin' : 'coins') : one ? 'token' : 'tokens';
  return `${formatNumber(credit.amount)} ${unit} ${one ? 'expires' : 'expire'} on ${formatDateTime(credit.expiresAt)}`;
}

/** What the user owes after an event reversal (`30 coins · 2 tokens`), or null when nothing. */
export function debtText(balance: Pick<IncentiveBalance, 'debtCoins' | 'debtTokens'>): string | null {
  if (balance.debtCoins <= 0 && balance.debtTokens <= 0) return null;
  return formatAmounts({ coins: balance.debtCoins, xp: 0, tokens: balance.debtTokens });
}
