import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ActionTypeName } from './action-types';
import type { ActionRepository } from './action.repository';

export interface ActionDoc {
  /** actionId(appId, key): a second create of the same key collides on _id. */
  _id: string;
  appId: string;
  key: string;
  name: string;
  type: ActionTypeName;
  coins: number;
  xp: number;
  tokens: number;
  cooldownSeconds: number;
  /** null = unlimited. */
  maxRepeats: number | null;
  enabled: boolean;
  description: string | null;
  /** Days its coins and tokens stay pending (absent on actions from before: 0). */
  pendingDays?: number;
  createdAt: Date;
  updatedAt: Date;
  /** The operation key of the request that created it (see createDefinition); null without one. */
  createdByOperation?: string | null;
}

const actionSchema = new Schema<ActionDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    key: { type: String, required: true },
    name: { type: String, required: true },
    type: { type: String, required: true },
    coins: { type: Number, required: true },
    xp: { type: Number, required: true },
    tokens: { type: Number, required: true },
    cooldownSeconds: { type: Number, required: true },
    pendingDays: { type: Number, default: 0 },
    maxRepeats: { type: Number, default: null },
    enabled: { type: Boolean, required: true },
    description: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'actions', versionKey: false },
);
declareIndexes<QueryNames<ActionRepository>>(actionSchema, [
  {
    keys: { appId: 1, key: 1 },
    options: { unique: true },
    serves: ['create', 'page', 'ofType'],
    why: 'keys are unique per app (409 on a duplicate); GET /incentives/actions in key order; the referral consumer’s actions of a type (few per app)',
  },
]);

export const actionModel = (db: Connection): Model<ActionDoc> =>
  (db.models.IncentiveAction as Model<ActionDoc> | undefined) ?? db.model<ActionDoc>('IncentiveAction', actionSchema);
