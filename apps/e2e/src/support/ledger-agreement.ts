import type { ApiClient } from '@ris/testing';
import { retryRateLimited } from './rate-limited-calls';

/**
 * Through the public API only: the sum of a user's transactions equals
 * their balance, and the ledger's positions run 1..n without gaps.
 */
export async function ledgerAgreesWithBalance(api: ApiClient, userId: string) {
  const totals = { coins: 0, xp: 0, tokens: 0 };
  const seqs: number[] = [];
  for (let page = 1; ; page += 1) {
    const res = await retryRateLimited(() => api.get(`/incentives/balances/${encodeURIComponent(userId)}/transactions?limit=100&page=${page}`));
    if (res.status !== 200) throw new Error(`transactions: ${res.status} ${JSON.stringify(res.body)}`);
    for (const t of res.body.transactions as Array<{ coins: number; xp: number; tokens: number; seq: number }>) {
      totals.coins += t.coins;
      totals.xp += t.xp;
      totals.tokens += t.tokens;
      seqs.push(t.seq);
    }
    if (page >= res.body.pagination.totalPages) break;
  }
  const balance = (await retryRateLimited(() => api.get(`/incentives/balances/${encodeURIComponent(userId)}`))).body.balance;
  return {
    totals,
    balance: { coins: balance.coins, xp: balance.xp, tokens: balance.tokens },
    gapless: [...seqs].sort((a, b) => a - b).every((seq, i) => seq === i + 1),
  };
}
