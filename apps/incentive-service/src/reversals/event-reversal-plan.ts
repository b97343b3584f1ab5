import { reversalOf } from './take-back';
import type { BalanceState, Movement } from '../ledger/balance-fold';
import type { LedgerEntryDoc } from '../ledger/ledger-entry.model';

/**
 * The REVERSAL of an event's reward entry (POST /incentives/events/{eventId}/reverse),
 * planned against the balance at the version it will be written at:
 *
 * - still pending: the pending credit is cancelled, nothing else moves;
 * - available (credited at once, or released since): its coins and tokens
 *   are debited as far as the balance holds them, and the rest becomes a
 *   debt the user's next credits repay (never a negative balance);
 * - its XP is taken back (as far as the balance holds it), so the level
 *   shown follows the XP; levels granted stay granted, what they gave stays.
 */
export function eventReversalMovement(reward: LedgerEntryDoc, state: BalanceState, reason: string | null, at: Date): Movement {
  const pending = state.pending.find((p) => p.key === reward.sourceId);
  const earnedCoins = reward.coins + Math.max(0, reward.pendingCoins ?? 0) + (reward.debtRepaid?.coins ?? 0);
  const earnedTokens = reward.tokens + Math.max(0, reward.pendingTokens ?? 0) + (reward.debtRepaid?.tokens ?? 0);
  const coins = pending ? 0 : Math.min(earnedCoins, state.coins);
  const tokens = pending ? 0 : Math.min(earnedTokens, state.tokens);
  const debt = pending ? null : { coins: earnedCoins - coins, tokens: earnedTokens - tokens };
  return {
    ...reversalOf(reward),
    cause: 'EVENT_REVERSAL',
    // 0 - n rather than -n: nothing taken is 0, not -0.
    coins: 0 - coins,
    xp: 0 - Math.min(reward.xp, state.xp),
    tokens: 0 - tokens,
    ...(pending ? { pendingCoins: 0 - pending.coins, pendingTokens: 0 - pending.tokens } : {}),
    debt: debt && (debt.coins > 0 || debt.tokens > 0) ? debt : null,
    description: reason ? `Event reversed: ${reason}` : 'Event reversed',
    createdAt: at,
  };
}
