import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  BadgeSchema,
  BadgeSource,
  LevelSchema,
  MilestoneMetric,
  MilestoneSchema,
  ReachedMilestoneSchema,
  UserBadgeSchema,
  enumName,
  enumValue,
  type Badge,
  type IncentiveService,
  type Level,
  type LevelRewards,
  type Milestone,
  type MilestoneRewards,
  type ReachedMilestone,
  type UserBadge,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import { checkUserId } from '../definitions/definition-key';
import type { BadgeDoc } from './badge.model';
import type { Badges } from './badges';
import type { LevelDef } from './level-progress';
import type { Levels } from './levels';
import type { MilestoneMetricName } from './milestone-rules';
import type { MilestoneDoc, MilestoneRewardsDoc } from './milestone.model';
import type { Milestones } from './milestones';
import type { ReachedMilestoneDoc } from './reached-milestone.model';
import type { UserBadgeDoc } from './user-badge.model';

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
    streakKey: doc.streakKey ?? undefined,
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

const metric = (m: MilestoneMetric) => enumName(MilestoneMetric, m) as MilestoneMetricName | undefined;

function levelRewards(r: LevelRewards | undefined): LevelDef['rewards'] {
  return { coins: r?.coins ?? 0, badgeKey: r?.badgeKey ?? null, perks: r?.perks ?? [] };
}

function milestoneRewards(r: MilestoneRewards | undefined): MilestoneRewardsDoc {
  return { coins: r?.coins ?? 0, xp: r?.xp ?? 0, tokens: r?.tokens ?? 0, badgeKey: r?.badgeKey ?? null };
}

type ProgressionCalls = Pick<
  ServiceImpl<typeof IncentiveService>,
  | 'listLevels'
  | 'createLevel'
  | 'updateLevel'
  | 'deleteLevel'
  | 'listBadges'
  | 'createBadge'
  | 'updateBadge'
  | 'listUserBadges'
  | 'listBadgeHolders'
  | 'awardBadge'
  | 'listMilestones'
  | 'getMilestone'
  | 'createMilestone'
  | 'updateMilestone'
  | 'deleteMilestone'
  | 'listReachedMilestones'
>;

/** Levels, badges and milestones at the edge: their definitions, and what users reached or hold. */
export function progressionCalls(levels: Levels, badges: Badges, milestones: Milestones): ProgressionCalls {
  return {
    // --- levels
    async listLevels(_req, ctx) {
      return { levels: (await levels.list(tenantOf(ctx))).map(levelMessage) };
    },
    async createLevel(req, ctx) {
      if (!req.level) throw invalidArgument('level is required');
      const level = await levels.create(
        tenantOf(ctx),
        { level: req.level.level, name: req.level.name, xpThreshold: req.level.xpThreshold, rewards: levelRewards(req.level.rewards) },
        req.operationKey,
      );
      return { level: levelMessage(level) };
    },
    async updateLevel(req, ctx) {
      const level = await levels.update(tenantOf(ctx), req.level, {
        name: req.name,
        xpThreshold: req.xpThreshold,
        rewards: req.rewards ? levelRewards(req.rewards) : undefined,
      });
      return { level: levelMessage(level) };
    },
    async deleteLevel(req, ctx) {
      await levels.delete(tenantOf(ctx), req.level);
      return {};
    },

    // --- badges
    async listBadges(req, ctx) {
      const page = await badges.list(tenantOf(ctx), pageFromRequest(req.page));
      return { badges: page.items.map(badgeMessage), page: pageReply(page) };
    },
    async createBadge(req, ctx) {
      const badge = await badges.create(
        tenantOf(ctx),
        { key: req.key, name: req.name, description: req.description ?? null, imageUrl: req.imageUrl ?? null },
        req.operationKey,
      );
      return { badge: badgeMessage(badge) };
    },
    async updateBadge(req, ctx) {
      const badge = await badges.update(tenantOf(ctx), req.key, { name: req.name, description: req.description, imageUrl: req.imageUrl });
      return { badge: badgeMessage(badge) };
    },
    async listUserBadges(req, ctx) {
      const page = await badges.listForUser(tenantOf(ctx), checkUserId(req.userId), pageFromRequest(req.page));
      return { badges: page.items.map((i) => userBadgeMessage(i.award, i.badge)), page: pageReply(page) };
    },
    async listBadgeHolders(req, ctx) {
      const { badge, awards } = await badges.holders(tenantOf(ctx), req.key, pageFromRequest(req.page));
      return { holders: awards.items.map((award) => userBadgeMessage(award, badge)), page: pageReply(awards) };
    },
    async awardBadge(req, ctx) {
      const appId = tenantOf(ctx);
      const badge = await badges.get(appId, req.key);
      const { award, awarded } = await badges.award(appId, badge, checkUserId(req.userId), 'MANUAL', null, req.operationKey);
      return { userBadge: userBadgeMessage(award, badge), awarded };
    },

    // --- milestones
    async listMilestones(req, ctx) {
      const page = await milestones.list(tenantOf(ctx), pageFromRequest(req.page));
      return { milestones: page.items.map(milestoneMessage), page: pageReply(page) };
    },
    async getMilestone(req, ctx) {
      return { milestone: milestoneMessage(await milestones.get(tenantOf(ctx), req.key)) };
    },
    async createMilestone(req, ctx) {
      const m = metric(req.metric);
      if (!m) throw invalidArgument('metric is required');
      const milestone = await milestones.create(
        tenantOf(ctx),
        { key: req.key, name: req.name, description: req.description ?? null, metric: m, threshold: req.threshold, rewards: milestoneRewards(req.rewards), streakKey: req.streakKey ?? null },
        req.operationKey,
      );
      return { milestone: milestoneMessage(milestone) };
    },
    async updateMilestone(req, ctx) {
      const milestone = await milestones.update(tenantOf(ctx), req.key, {
        name: req.name,
        description: req.description,
        metric: metric(req.metric),
        threshold: req.threshold,
        rewards: req.rewards ? milestoneRewards(req.rewards) : undefined,
        streakKey: req.streakKey,
      });
      return { milestone: milestoneMessage(milestone) };
    },
    async deleteMilestone(req, ctx) {
      await milestones.delete(tenantOf(ctx), req.key);
      return {};
    },
    async listReachedMilestones(req, ctx) {
      const page = await milestones.listReached(tenantOf(ctx), pageFromRequest(req.page), {
        userId: req.userId ? checkUserId(req.userId) : undefined,
        key: req.key || undefined,
      });
      return { milestones: page.items.map(reachedMilestoneMessage), page: pageReply(page) };
    },
  };
}
