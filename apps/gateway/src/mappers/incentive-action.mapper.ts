import { ActionType, EventSource, MilestoneMetric, RewardRefusal, enumName, type Action, type EventResult, type IncentiveEvent } from '@ris/contracts';
import { isoTime } from './proto-json';

export function actionJson(a: Action) {
  return {
    key: a.key,
    name: a.name,
    type: enumName(ActionType, a.type) ?? null,
    coins: a.coins,
    xp: a.xp,
    tokens: a.tokens,
    cooldown: a.cooldownSeconds,
    maxRepeats: a.maxRepeats ?? null,
    enabled: a.enabled,
    description: a.description ?? null,
    createdAt: isoTime(a.createdAt),
    updatedAt: isoTime(a.updatedAt),
  };
}

const amounts = (a: { coins: number; xp: number; tokens: number } | undefined) => (a ? { coins: a.coins, xp: a.xp, tokens: a.tokens } : null);

/** POST /incentives/events (docs/api.md#incentive-events). */
export function eventResultJson(r: EventResult) {
  const e = r.event;
  return {
    event: { id: e?.id ?? '', userId: e?.userId ?? '', actionKey: e?.actionKey ?? '', createdAt: isoTime(e?.createdAt) },
    rewarded: amounts(e?.rewarded),
    reason: e ? (enumName(RewardRefusal, e.reason) ?? null) : null,
    balance: { coins: r.balance?.coins ?? 0, xp: r.balance?.xp ?? 0, tokens: r.balance?.tokens ?? 0, level: r.balance?.level ?? 0 },
    levelUp: r.levelUp ? { from: r.levelUp.fromLevel, to: r.levelUp.toLevel } : null,
    badgesAwarded: r.badgesAwarded.map((b) => ({ key: b.key, name: b.name })),
    milestonesReached: r.milestonesReached.map((m) => ({
      key: m.key,
      name: m.name,
      metric: enumName(MilestoneMetric, m.metric) ?? null,
      threshold: m.threshold,
    })),
    duplicate: r.duplicate,
  };
}

/** GET /incentives/events items. */
export function eventJson(e: IncentiveEvent) {
  return {
    id: e.id,
    userId: e.userId,
    actionKey: e.actionKey,
    idempotencyKey: e.idempotencyKey ?? null,
    metadata: e.metadata ?? null,
    source: enumName(EventSource, e.source) ?? null,
    rewarded: amounts(e.rewarded),
    reason: enumName(RewardRefusal, e.reason) ?? null,
    createdAt: isoTime(e.createdAt),
  };
}
