import type { BalanceState, Movement } from './balance-fold';

const noSource = { actionKey: null, actionType: null, level: null, milestoneKey: null, perks: [] as string[] };

/** The ledger key of a pending credit's release: once per event. */
export const releaseEntryKey = (eventId: string) => `release:${eventId}`;
/** The ledger key of an expiry: the user and the latest lot it lapses (a lot lapses once: the fold removes it). */
export const expiryEntryKey = (userId: string, upTo: Date) => `expiry:${userId}:${upTo.getTime()}`;

/**
 * What is due on a balance at `at`, as movements in the order they apply:
 * each pending credit whose time came becomes available (PENDING_RELEASE,
 * its coins then a lot of their own), then the lots that lapsed go (one
 * EXPIRY: the fold takes it from the soonest lots, which are those).
 */
export function dueMovements(state: BalanceState, userId: string, at: Date): Movement[] {
  const movements: Movement[] = state.pending
    .filter((p) => p.releaseAt.getTime() <= at.getTime())
    .map((p) => ({
      ...noSource,
      key: releaseEntryKey(p.key),
      reason: 'PENDING_RELEASE',
      cause: 'PENDING_RELEASE',
      coins: p.coins,
      xp: 0,
      tokens: p.tokens,
      pendingCoins: -p.coins,
      pendingTokens: -p.tokens,
      sourceId: p.key,
      description: 'Pending credit released',
      createdAt: at,
    }));
  const coinLots = state.coinLots.filter((l) => l.expiresAt.getTime() <= at.getTime());
  const tokenLots = state.tokenLots.filter((l) => l.expiresAt.getTime() <= at.getTime());
  const coins = coinLots.reduce((sum, l) => sum + l.amount, 0);
  const tokens = tokenLots.reduce((sum, l) => sum + l.amount, 0);
  if (coins > 0 || tokens > 0) {
    const upTo = new Date(Math.max(...[...coinLots, ...tokenLots].map((l) => l.expiresAt.getTime())));
    movements.push({
      ...noSource,
      key: expiryEntryKey(userId, upTo),
      reason: 'EXPIRY',
      cause: 'EXPIRY',
      coins: -coins,
      xp: 0,
      tokens: -tokens,
      sourceId: upTo.toISOString(),
      description: 'Expired',
      createdAt: at,
    });
  }
  return movements;
}
