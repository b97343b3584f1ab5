import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { StreakPeriodName } from './streak-periods';
import type { StreakDefinitionRepository } from './streak-definition.repository';

/** Paid once per streak that reaches `length` (again by a later streak). */
export interface StreakRewardDoc {
  length: number;
  coins: number;
  xp: number;
  tokens: number;
  badgeKey: string | null;
}

/** A streak definition. */
export interface StreakDefinitionDoc {
  /** streakDefinitionId(app, key). */
  _id: string;
  appId: string;
  key: string;
  name: string;
  period: StreakPeriodName;
  /** Empty: any action's events extend it. */
  actionKeys: string[];
  freezesPerMonth: number;
  /** By length, ascending. */
  rewards: StreakRewardDoc[];
  createdAt: Date;
  updatedAt: Date;
  createdByOperation?: string | null;
}

const streakDefinitionSchema = new Schema<StreakDefinitionDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    period: { type: String, required: true },
    actionKeys: { type: [String], default: [] },
    freezesPerMonth: { type: Number, default: 0 },
    rewards: {
      type: [new Schema({ length: Number, coins: Number, xp: Number, tokens: Number, badgeKey: { type: String, default: null } }, { _id: false })],
      default: [],
    },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'streak_definitions', versionKey: false },
);
declareIndexes<QueryNames<StreakDefinitionRepository>>(streakDefinitionSchema, [
  {
    keys: { appId: 1, key: 1 },
    options: { unique: true },
    serves: ['create', 'all', 'page'],
    why: "keys are unique per app; an app's definitions in key order (read on every event of an app that has any, cached briefly) and GET …/streaks/definitions",
  },
]);

export const streakDefinitionModel = (db: Connection): Model<StreakDefinitionDoc> =>
  (db.models.StreakDefinition as Model<StreakDefinitionDoc> | undefined) ?? db.model<StreakDefinitionDoc>('StreakDefinition', streakDefinitionSchema);
