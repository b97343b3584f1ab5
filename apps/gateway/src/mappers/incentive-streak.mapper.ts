import {
  StreakPeriod,
  type StreakDefinition as StreakDefinitionMessage,
  type StreakExtension as StreakExtensionMessage,
  type StreakReward as StreakRewardMessage,
  type UserSettings as UserSettingsMessage,
  type UserStreak as UserStreakMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, publicEnum, time } from './entity';

export const StreakPeriods = publicEnum(StreakPeriod);

const StreakReward = entity<StreakRewardMessage>()('StreakReward', {
  length: z.number().int().openapi({ description: 'Paid when a streak reaches this length (once per streak; again on a later streak that reaches it)' }),
  coins: z.number(),
  xp: z.number(),
  tokens: z.number(),
  badgeKey: z.string().nullable(),
});

/** POST /incentives/streaks/definitions (docs/api.md#streaks). */
export const StreakDefinition = entity<StreakDefinitionMessage>()('StreakDefinition', {
  key: z.string(),
  name: z.string(),
  period: StreakPeriods.field((s) => s.openapi({ description: "DAILY: a calendar day in the user's time zone; WEEKLY: an ISO week, Monday to Sunday" })),
  actionKeys: z.array(z.string()).openapi({ description: 'Actions whose events extend it; empty: any action' }),
  freezesPerMonth: z.number().int().openapi({ description: 'Missed periods saved per calendar month (a freeze keeps the streak, it does not lengthen it)' }),
  rewards: StreakReward.list(),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

/** GET /incentives/streaks/{userId}. */
export const UserStreak = entity<UserStreakMessage>()('UserStreak', {
  key: z.string(),
  name: z.string(),
  period: StreakPeriods.field(),
  length: z.number().int().openapi({ description: 'Periods in a row with a qualifying event (0: no streak running)' }),
  longest: z.number().int().openapi({ description: 'The longest streak this user had of this key' }),
  periodStart: time(timestamp.openapi({ description: "When the current period began, in the streak's time zone" })),
  extendedThisPeriod: z.boolean().openapi({ description: 'A qualifying event happened in the current period (extendedToday for DAILY, extendedThisWeek for WEEKLY)' }),
  freezesLeft: z.number().int().openapi({ description: "Freezes left in the current period's month" }),
  atRisk: z.boolean().openapi({ description: 'Running and not yet extended this period: it uses a freeze or ends when the period ends without a qualifying event' }),
  lastExtendedAt: time(timestamp.nullable()),
  timeZone: z.string().openapi({ description: "The IANA zone its periods are counted in: the last extending event's, else the user's" }),
});

/** What an event did to a streak (IncentiveEventResult.streaksExtended). */
export const StreakExtension = entity<StreakExtensionMessage>()('StreakExtension', {
  key: z.string(),
  length: z.number().int(),
  freezesUsed: z.number().int().openapi({ description: 'Missed periods just before this one that freezes saved' }),
  restarted: z.boolean().openapi({ description: 'The streak had ended: this event started a new one (length 1)' }),
});

export const UserSettings = entity<UserSettingsMessage>()('IncentiveUserSettings', {
  userId: z.string(),
  timeZone: z.string().openapi({ description: 'IANA name; UTC until set', example: 'Europe/Paris' }),
  updatedAt: time(timestamp.nullable()),
});

export const streakDefinitionJson = StreakDefinition.json;
export const userStreakJson = UserStreak.json;
export const userSettingsJson = UserSettings.json;
