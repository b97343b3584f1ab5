import { LedgerReason, enumName, type Balance, type LedgerEntry, type Level } from '@ris/contracts';
import { isoTime } from './proto-json';

export function balanceJson(b: Balance) {
  return {
    userId: b.userId,
    coins: b.coins,
    tokens: b.tokens,
    xp: b.xp,
    level: b.level,
    levelName: b.levelName ?? null,
    nextLevel: b.nextLevel
      ? { level: b.nextLevel.level, name: b.nextLevel.name, xpThreshold: b.nextLevel.xpThreshold, xpRemaining: b.nextLevel.xpRemaining }
      : null,
    progress: b.progress,
    perks: b.perks,
    coinsEarned: b.coinsEarned,
    rewardedEvents: b.rewardedEvents,
    referrals: b.referrals,
    updatedAt: isoTime(b.updatedAt),
  };
}

export function transactionJson(t: LedgerEntry) {
  return {
    id: t.id,
    seq: t.seq,
    reason: enumName(LedgerReason, t.reason) ?? null,
    coins: t.amounts?.coins ?? 0,
    xp: t.amounts?.xp ?? 0,
    tokens: t.amounts?.tokens ?? 0,
    balanceAfter: { coins: t.balanceAfter?.coins ?? 0, xp: t.balanceAfter?.xp ?? 0, tokens: t.balanceAfter?.tokens ?? 0 },
    sourceId: t.sourceId,
    actionKey: t.actionKey ?? null,
    description: t.description ?? null,
    createdAt: isoTime(t.createdAt),
  };
}

export function levelJson(l: Level) {
  return {
    level: l.level,
    name: l.name,
    xpThreshold: l.xpThreshold,
    rewards: { coins: l.rewards?.coins ?? 0, badgeKey: l.rewards?.badgeKey ?? null, perks: l.rewards?.perks ?? [] },
  };
}
