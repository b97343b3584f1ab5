import {
  BadgeSource,
  LeaderboardPeriod,
  MilestoneMetric,
  enumName,
  type Badge,
  type LeaderboardEntry,
  type LeaderboardSnapshot,
  type Milestone,
  type ReachedMilestone,
  type UserBadge,
} from '@ris/contracts';
import { isoTime } from './proto-json';

export function badgeJson(b: Badge) {
  return {
    key: b.key,
    name: b.name,
    description: b.description ?? null,
    imageUrl: b.imageUrl ?? null,
    createdAt: isoTime(b.createdAt),
    updatedAt: isoTime(b.updatedAt),
  };
}

export function userBadgeJson(u: UserBadge) {
  return {
    userId: u.userId,
    key: u.badge?.key ?? '',
    name: u.badge?.name ?? '',
    description: u.badge?.description ?? null,
    imageUrl: u.badge?.imageUrl ?? null,
    source: enumName(BadgeSource, u.source) ?? null,
    sourceId: u.sourceId ?? null,
    awardedAt: isoTime(u.awardedAt),
  };
}

export function milestoneJson(m: Milestone) {
  return {
    key: m.key,
    name: m.name,
    description: m.description ?? null,
    metric: enumName(MilestoneMetric, m.metric) ?? null,
    threshold: m.threshold,
    rewards: { coins: m.rewards?.coins ?? 0, xp: m.rewards?.xp ?? 0, tokens: m.rewards?.tokens ?? 0, badgeKey: m.rewards?.badgeKey ?? null },
    createdAt: isoTime(m.createdAt),
    updatedAt: isoTime(m.updatedAt),
  };
}

export function reachedMilestoneJson(m: ReachedMilestone) {
  return {
    userId: m.userId,
    key: m.key,
    name: m.name,
    metric: enumName(MilestoneMetric, m.metric) ?? null,
    threshold: m.threshold,
    reachedAt: isoTime(m.reachedAt),
  };
}

export const leaderboardEntryJson = (e: LeaderboardEntry) => ({ rank: e.rank, userId: e.userId, xp: e.xp, coins: e.coins });

export function snapshotJson(s: LeaderboardSnapshot) {
  return {
    id: s.id,
    period: enumName(LeaderboardPeriod, s.period) ?? null,
    periodKey: s.periodKey,
    startsAt: isoTime(s.startsAt),
    endsAt: isoTime(s.endsAt),
    takenAt: isoTime(s.takenAt),
    totalUsers: s.totalUsers,
    entries: s.entries.map(leaderboardEntryJson),
  };
}
