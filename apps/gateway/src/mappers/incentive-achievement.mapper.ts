import {
  BadgeSource,
  LeaderboardPeriod,
  RefreshRunStatus,
  type Badge as BadgeMessage,
  type LeaderboardEntry as LeaderboardEntryMessage,
  type LeaderboardSnapshot as LeaderboardSnapshotMessage,
  type Milestone as MilestoneMessage,
  type ReachedMilestone as ReachedMilestoneMessage,
  type RefreshRun as RefreshRunMessage,
  type UserBadge as UserBadgeMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { MilestoneMetrics } from './incentive-action.mapper';

export const BadgeSources = publicEnum(BadgeSource);
export const LeaderboardPeriods = publicEnum(LeaderboardPeriod);

export const Badge = entity<BadgeMessage>()('Badge', {
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  imageUrl: z.string().nullable(),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const UserBadge = entity<UserBadgeMessage>()('UserBadge', {
  userId: z.string(),
  key: from(z.string(), (u: UserBadgeMessage) => u.badge?.key ?? ''),
  name: from(z.string(), (u: UserBadgeMessage) => u.badge?.name ?? ''),
  description: from(z.string().nullable(), (u: UserBadgeMessage) => u.badge?.description ?? null),
  imageUrl: from(z.string().nullable(), (u: UserBadgeMessage) => u.badge?.imageUrl ?? null),
  source: BadgeSources.field(),
  sourceId: z.string().nullable().openapi({ description: 'Level number, milestone key or <streak key>:<length> that awarded it; null when awarded by hand' }),
  awardedAt: time(timestamp),
});

export const Milestone = entity<MilestoneMessage>()('MilestoneDefinition', {
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  metric: MilestoneMetrics.field(),
  threshold: z.number(),
  rewards: from(z.object({ coins: z.number(), xp: z.number(), tokens: z.number(), badgeKey: z.string().nullable() }), (m: MilestoneMessage) => ({
    coins: m.rewards?.coins ?? 0,
    xp: m.rewards?.xp ?? 0,
    tokens: m.rewards?.tokens ?? 0,
    badgeKey: m.rewards?.badgeKey ?? null,
  })),
  streakKey: z.string().nullable().openapi({ description: 'STREAK only: the streak whose longest length is the metric; null otherwise' }),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const ReachedMilestone = entity<ReachedMilestoneMessage>()('ReachedMilestone', {
  userId: z.string(),
  key: z.string(),
  name: z.string(),
  metric: MilestoneMetrics.field(),
  threshold: z.number(),
  reachedAt: time(timestamp),
});

export const LeaderboardEntry = entity<LeaderboardEntryMessage>()('LeaderboardEntry', {
  rank: z.number().int().openapi({ description: '1 = first; equal XP goes to whoever reached it first (to the millisecond), then by user id' }),
  userId: z.string(),
  xp: z.number().openapi({ description: "XP within the board's period" }),
  coins: z.number().openapi({ description: 'Current coin balance' }),
});

export const LeaderboardSnapshot = entity<LeaderboardSnapshotMessage>()('LeaderboardSnapshot', {
  id: z.string(),
  period: LeaderboardPeriods.field(),
  periodKey: z.string().openapi({ example: '2026-11-21' }),
  startsAt: time(timestamp.nullable()),
  endsAt: time(timestamp),
  takenAt: time(timestamp),
  totalUsers: z.number().int(),
  entries: LeaderboardEntry.list(),
});

export const RefreshRunStatuses = publicEnum(RefreshRunStatus);

/** POST /incentives/leaderboard/refresh-runs: a rebuild of the app's boards in the background, and its progress. */
export const RefreshRun = entity<RefreshRunMessage>()('LeaderboardRefreshRun', {
  id: z.string(),
  status: RefreshRunStatuses.field((s) =>
    s.openapi({
      description: 'RUNNING, then SUCCEEDED or FAILED. A RUNNING run whose process stopped (no sign of life for 30 s) reads FAILED, and a new one may start',
    }),
  ),
  usersDone: z.number().int().openapi({ description: 'Users written to the boards so far (updated per batch of 500)' }),
  usersTotal: z.number().int().openapi({ description: 'Users to write, counted when the run started; once SUCCEEDED, the users written (= usersDone)' }),
  startedAt: time(timestamp),
  finishedAt: time(timestamp.nullable().openapi({ description: 'null while RUNNING' })),
  durationMs: z.number().nullable().openapi({ description: 'null while RUNNING' }),
  error: z.string().nullable().openapi({ description: 'Why it FAILED; null otherwise' }),
});

export const refreshRunJson = RefreshRun.json;
export const badgeJson = Badge.json;
export const userBadgeJson = UserBadge.json;
export const milestoneJson = Milestone.json;
export const reachedMilestoneJson = ReachedMilestone.json;
export const leaderboardEntryJson = LeaderboardEntry.json;
export const snapshotJson = LeaderboardSnapshot.json;
