import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  StreakDefinitionSchema,
  StreakPeriod,
  UserStreakSchema,
  enumName,
  enumValue,
  type IncentiveService,
  type StreakDefinition,
  type StreakReward,
  type UserStreak as UserStreakMessage,
} from '@ris/contracts';
import { invalidArgument, pageFromRequest, pageReply, tenantOf } from '@ris/rpc';
import type { StreakDefinitionDoc, StreakRewardDoc } from './streak-definition.model';
import type { StreakDefinitions } from './streak-definitions';
import type { StreakPeriodName } from './streak-periods';
import type { Streaks, UserSettings, UserStreak } from './streaks';

export function streakDefinitionMessage(doc: StreakDefinitionDoc): StreakDefinition {
  return create(StreakDefinitionSchema, {
    key: doc.key,
    name: doc.name,
    period: enumValue(StreakPeriod, doc.period),
    actionKeys: doc.actionKeys,
    freezesPerMonth: doc.freezesPerMonth,
    rewards: doc.rewards.map((r) => ({ ...r, badgeKey: r.badgeKey ?? undefined })),
    createdAt: timestampFromDate(doc.createdAt),
    updatedAt: timestampFromDate(doc.updatedAt),
  });
}

function userStreakMessage(s: UserStreak): UserStreakMessage {
  return create(UserStreakSchema, {
    key: s.key,
    name: s.name,
    period: enumValue(StreakPeriod, s.period),
    length: s.length,
    longest: s.longest,
    periodStart: timestampFromDate(s.periodStart),
    extendedThisPeriod: s.extendedThisPeriod,
    freezesLeft: s.freezesLeft,
    atRisk: s.atRisk,
    lastExtendedAt: s.lastExtendedAt ? timestampFromDate(new Date(s.lastExtendedAt)) : undefined,
    timeZone: s.timeZone,
  });
}

const settingsMessage = (s: UserSettings) => ({ userId: s.userId, timeZone: s.timeZone, updatedAt: s.updatedAt ? timestampFromDate(s.updatedAt) : undefined });

const rewardDocs = (rewards: StreakReward[]): StreakRewardDoc[] =>
  rewards.map((r) => ({ length: r.length, coins: r.coins, xp: r.xp, tokens: r.tokens, badgeKey: r.badgeKey ?? null }));

type StreakCalls = Pick<
  ServiceImpl<typeof IncentiveService>,
  | 'createStreakDefinition'
  | 'listStreakDefinitions'
  | 'getStreakDefinition'
  | 'updateStreakDefinition'
  | 'deleteStreakDefinition'
  | 'getUserStreaks'
  | 'getUserSettings'
  | 'putUserSettings'
>;

/** Streak definitions, users' streaks and users' settings at the edge. */
export function streakCalls(definitions: StreakDefinitions, streaks: Streaks): StreakCalls {
  return {
    async createStreakDefinition(req, ctx) {
      const period = enumName(StreakPeriod, req.period) as StreakPeriodName | undefined;
      if (!period) throw invalidArgument('period is required');
      const streak = await definitions.create(
        tenantOf(ctx),
        { key: req.key, name: req.name, period, actionKeys: req.actionKeys, freezesPerMonth: req.freezesPerMonth, rewards: rewardDocs(req.rewards) },
        req.operationKey,
      );
      return { streak: streakDefinitionMessage(streak) };
    },
    async listStreakDefinitions(req, ctx) {
      const page = await definitions.list(tenantOf(ctx), pageFromRequest(req.page));
      return { streaks: page.items.map(streakDefinitionMessage), page: pageReply(page) };
    },
    async getStreakDefinition(req, ctx) {
      return { streak: streakDefinitionMessage(await definitions.get(tenantOf(ctx), req.key)) };
    },
    async updateStreakDefinition(req, ctx) {
      const streak = await definitions.update(tenantOf(ctx), req.key, {
        name: req.name,
        actionKeys: req.setActionKeys ? req.actionKeys : undefined,
        freezesPerMonth: req.freezesPerMonth,
        rewards: req.setRewards ? rewardDocs(req.rewards) : undefined,
      });
      return { streak: streakDefinitionMessage(streak) };
    },
    async deleteStreakDefinition(req, ctx) {
      await definitions.delete(tenantOf(ctx), req.key);
      return {};
    },
    async getUserStreaks(req, ctx) {
      return { streaks: (await streaks.userStreaks(tenantOf(ctx), req.userId)).map(userStreakMessage) };
    },
    async getUserSettings(req, ctx) {
      return { settings: settingsMessage(await streaks.settings(tenantOf(ctx), req.userId)) };
    },
    async putUserSettings(req, ctx) {
      return { settings: settingsMessage(await streaks.putSettings(tenantOf(ctx), req.userId, req.timeZone)) };
    },
  };
}
