import type { TestApp } from '@ris/testing';

export interface Coins {
  coins: number;
  tokens: number;
}

/**
 * Gives users coins and tokens the way an app does: through an action
 * worth that much (created once per amount) and one event per grant.
 */
export class CoinFaucet {
  private readonly actions = new Map<string, Promise<string>>();

  constructor(private readonly app: TestApp) {}

  private action(coins: number, tokens: number): Promise<string> {
    const key = `faucet-${coins}-${tokens}`;
    let created = this.actions.get(key);
    if (!created) {
      created = this.app.api
        .post('/incentives/actions', { key, name: `Faucet ${coins}/${tokens}`, type: 'STANDARD', coins, tokens })
        .then((res) => {
          if (res.status !== 201) throw new Error(`creating action ${key}: ${res.status} ${JSON.stringify(res.body)}`);
          return key;
        });
      this.actions.set(key, created);
    }
    return created;
  }

  async give(userId: string, coins: number, tokens = 0): Promise<void> {
    const actionKey = await this.action(coins, tokens);
    const res = await this.app.api.post('/incentives/events', { userId, actionKey });
    if (res.status !== 201 || !res.body.rewarded) throw new Error(`funding ${userId}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** GET /incentives/balances/{userId}: coins and tokens. */
export async function balanceOf(app: TestApp, userId: string): Promise<Coins> {
  const res = await app.api.get(`/incentives/balances/${encodeURIComponent(userId)}`);
  if (res.status !== 200) throw new Error(`balance of ${userId}: ${res.status} ${JSON.stringify(res.body)}`);
  return { coins: res.body.balance.coins, tokens: res.body.balance.tokens };
}

/** The user's ledger (GET /incentives/balances/{userId}/transactions, every page): its entries and their sums. */
export async function ledgerOf(app: TestApp, userId: string) {
  // Each entry carries its signed coins, tokens and xp.
  const entries: Array<{ reason: string; sourceId: string; coins: number; tokens: number }> = [];
  for (let page = 1; ; page += 1) {
    const res = await app.api.get(`/incentives/balances/${encodeURIComponent(userId)}/transactions?page=${page}&limit=100`);
    if (res.status !== 200) throw new Error(`ledger of ${userId}: ${res.status} ${JSON.stringify(res.body)}`);
    entries.push(...res.body.transactions);
    if (page >= res.body.pagination.totalPages) break;
  }
  const sum = (field: 'coins' | 'tokens') => entries.reduce((total, e) => total + e[field], 0);
  return { entries, coins: sum('coins'), tokens: sum('tokens') };
}

/** The balance, and a check that it is exactly what the ledger adds up to. */
export async function balanceMatchingLedger(app: TestApp, userId: string): Promise<Coins & { matches: boolean }> {
  const [balance, ledger] = await Promise.all([balanceOf(app, userId), ledgerOf(app, userId)]);
  return { ...balance, matches: balance.coins === ledger.coins && balance.tokens === ledger.tokens };
}
