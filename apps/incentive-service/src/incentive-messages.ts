import { create, type JsonObject } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  ActionSchema,
  ActionType,
  BadgeSchema,
  BadgeSource,
  BalanceSchema,
  EventResultSchema,
  EventSource,
  IncentiveEventSchema,
  LeaderboardEntrySchema,
  LeaderboardPeriod,
  LeaderboardSnapshotSchema,
  LedgerCause,
  LedgerEntrySchema,
  LedgerReason,
  LevelSchema,
  MilestoneMetric,
  MilestoneSchema,
  ReachedMilestoneSchema,
  RefreshRunSchema,
  RefreshRunStatus,
  RewardRefusal,
  UserBadgeSchema,
  enumValue,
  type Action,
  type Badge,
  type Balance,
  type EventResult,
  type IncentiveEvent,
  type LeaderboardEntry,
  type LeaderboardSnapshot,
  type LedgerEntry,
  type Level,
  type Milestone,
  type ReachedMilestone,
  type RefreshRun,
  type UserBadge,
} from '@ris/contracts';
import type { ActionDoc } from './actions/action.model';
import type { BadgeDoc } from './progression/badge.model';
import type { BalanceView } from './ledger/balance-movements';
import type { IncentiveEventDoc } from './events/incentive-event.model';
import type { BoardEntry } from './leaderboard/leaderboard-store';
import type { LeaderboardSnapshotDoc } from './leaderboard/leaderboard-snapshot.model';
import { causeOf } from './ledger/ledger-cause';
import type { LedgerEntryDoc } from './ledger/ledger-entry.model';
import type { LevelDef } from './progression/level-progress';
import type { MilestoneDoc } from './progression/milestone.model';
import type { ReachedMilestoneDoc } from './progression/reached-milestone.model';
import type { RefreshRunDoc } from './leaderboard/refresh-run.model';
import type { UserBadgeDoc } from './progression/user-badge.model';

// Domain documents → protobuf messages. Enum names are the proto names
// without their prefix (enumValue), as everywhere in the project.

export function actionMessage(doc: ActionDoc): Action {
  return create(ActionSchema, {
    key: doc.key,
    name: doc.name,
    type: enumValue(ActionType, doc.type),
    coins: doc.coins,
    xp: doc.xp,
    tokens: doc.tokens,
    cooldownSeconds: doc.cooldownSeconds,
    maxRepeats: doc.maxRepeats ?? undefined,
    enabled: doc.enabled,
    description: doc.description ?? undefined,
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

export function eventMessage(doc: IncentiveEventDoc): IncentiveEvent {
  return create(IncentiveEventSchema, {
    id: doc._id,
    userId: doc.userId,
    actionKey: doc.actionKey,
    idempotencyKey: doc.idempotencyKey ?? undefined,
    metadata: doc.metadataJson ? (JSON.parse(doc.metadataJson) as JsonObject) : undefined,
    source: enumValue(EventSource, doc.source),
    createdAt: timestampFromDate(doc.createdAt),
    rewarded: doc.result.rewarded ?? undefined,
    reason: enumValue(RewardRefusal, doc.result.reason),
    duplicates: doc.duplicates ?? 0,
  });
}

export function eventResultMessage(doc: IncentiveEventDoc, duplicate: boolean): EventResult {
  const r = doc.result;
  return create(EventResultSchema, {
    event: eventMessage(doc),
    balance: r.balance,
    levelUp: r.levelUp ? { fromLevel: r.levelUp.from, toLevel: r.levelUp.to } : undefined,
    badgesAwarded: r.badgesAwarded,
    milestonesReached: r.milestonesReached.map((m) => ({ ...m, metric: enumValue(MilestoneMetric, m.metric) })),
    duplicate,
  });
}

export function balanceMessage(view: BalanceView): Balance {
  const { state, progress } = view;
  return create(BalanceSchema, {
    userId: view.userId,
    coins: state.coins,
    tokens: state.tokens,
    xp: state.xp,
    level: progress.level,
    levelName: progress.levelName ?? undefined,
    nextLevel: progress.next ?? undefined,
    progress: progress.progress,
    perks: state.perks,
    coinsEarned: state.coinsEarned,
    rewardedEvents: state.rewardedEvents,
    referrals: state.referrals,
    updatedAt: view.updatedAt ? timestampFromDate(view.updatedAt) : undefined,
  });
}

export function ledgerEntryMessage(doc: LedgerEntryDoc): LedgerEntry {
  return create(LedgerEntrySchema, {
    id: doc._id,
    userId: doc.userId,
    seq: doc.seq,
    reason: enumValue(LedgerReason, doc.reason),
    cause: enumValue(LedgerCause, causeOf(doc)),
    amounts: { coins: doc.coins, xp: doc.xp, tokens: doc.tokens },
    balanceAfter: doc.balanceAfter,
    sourceId: doc.sourceId,
    actionKey: doc.actionKey ?? undefined,
    description: doc.description ?? undefined,
    createdAt: timestampFromDate(doc.createdAt),
  });
}

export function levelMessage(level: LevelDef): Level {
  return create(LevelSchema, {
    level: level.level,
    name: level.name,
    xpThreshold: level.xpThreshold,
    rewards: { coins: level.rewards.coins, badgeKey: level.rewards.badgeKey ?? undefined, perks: level.rewards.perks },
  });
}

export function badgeMessage(doc: BadgeDoc): Badge {
  return create(BadgeSchema, {
    key: doc.key,
    name: doc.name,
    description: doc.description ?? undefined,
    imageUrl: doc.imageUrl ?? undefined,
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

export function userBadgeMessage(award: UserBadgeDoc, badge: BadgeDoc | null): UserBadge {
  return create(UserBadgeSchema, {
    userId: award.userId,
    // A definition is never deleted, but the award stands on its own if it were.
    badge: badge ? badgeMessage(badge) : { key: award.badgeKey, name: award.badgeKey },
    source: enumValue(BadgeSource, award.source),
    sourceId: award.sourceId ?? undefined,
    awardedAt: timestampFromDate(award.awardedAt),
  });
}

export function milestoneMessage(doc: MilestoneDoc): Milestone {
  return create(MilestoneSchema, {
    key: doc.key,
    name: doc.name,
    description: doc.description ?? undefined,
    metric: enumValue(MilestoneMetric, doc.metric),
    threshold: doc.threshold,
    rewards: { ...doc.rewards, badgeKey: doc.rewards.badgeKey ?? undefined },
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

export function reachedMilestoneMessage(doc: ReachedMilestoneDoc): ReachedMilestone {
  return create(ReachedMilestoneSchema, {
    userId: doc.userId,
    key: doc.key,
    name: doc.name,
    metric: enumValue(MilestoneMetric, doc.metric),
    threshold: doc.threshold,
    reachedAt: timestampFromDate(doc.reachedAt),
  });
}

export const leaderboardEntryMessage = (entry: BoardEntry): LeaderboardEntry => create(LeaderboardEntrySchema, entry);

export function snapshotMessage(doc: LeaderboardSnapshotDoc): LeaderboardSnapshot {
  return create(LeaderboardSnapshotSchema, {
    id: doc._id,
    period: enumValue(LeaderboardPeriod, doc.period),
    periodKey: doc.periodKey,
    startsAt: doc.startsAt ? timestampFromDate(doc.startsAt) : undefined,
    endsAt: timestampFromDate(doc.endsAt),
    takenAt: timestampFromDate(doc.takenAt),
    entries: doc.entries,
    totalUsers: doc.totalUsers,
  });
}

export function refreshRunMessage(run: RefreshRunDoc): RefreshRun {
  return create(RefreshRunSchema, {
    id: run._id,
    status: enumValue(RefreshRunStatus, run.status),
    usersDone: run.usersDone,
    usersTotal: run.usersTotal,
    startedAt: timestampFromDate(run.startedAt),
    finishedAt: run.finishedAt ? timestampFromDate(run.finishedAt) : undefined,
    durationMs: run.durationMs ?? undefined,
    error: run.error ?? undefined,
  });
}
