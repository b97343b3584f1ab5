import { Schema, type Connection, type Model } from 'mongoose';

export const ACTION_TYPES = ['STANDARD', 'REFERRAL_CODE_GENERATE', 'REFERRAL_CLICK', 'REFERRAL_REFEREE_ACTION'] as const;
export type ActionTypeName = (typeof ACTION_TYPES)[number];

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
    maxRepeats: { type: Number, default: null },
    enabled: { type: Boolean, required: true },
    description: { type: String, default: null },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'actions', versionKey: false },
);
// Keys are unique per app (409 on a duplicate). Also serves GET /incentives/actions
// in key order, and the referral consumer's "actions of this type" (small per app).
actionSchema.index({ appId: 1, key: 1 }, { unique: true });

export const actionModel = (db: Connection): Model<ActionDoc> =>
  (db.models.IncentiveAction as Model<ActionDoc> | undefined) ?? db.model<ActionDoc>('IncentiveAction', actionSchema);
