import { Schema, type Connection, type Model } from 'mongoose';
import type { LevelDef } from './level-progress';

/**
 * An app's whole level ladder in one document, changed only by a
 * compare-and-set on `version`: the "thresholds rise with the level" rule
 * is checked against the ladder that is actually replaced, so two
 * concurrent changes cannot together produce a ladder that breaks it.
 */
export interface LevelSetDoc {
  /** The appId. */
  _id: string;
  appId: string;
  version: number;
  levels: LevelDef[];
  /** Level number → operation key of the request that created it (its retry is answered with the level). */
  createdByOperation?: Record<string, string>;
  updatedAt: Date;
}

const levelSchema = new Schema<LevelDef>(
  {
    level: { type: Number, required: true },
    name: { type: String, required: true },
    xpThreshold: { type: Number, required: true },
    rewards: {
      type: new Schema({ coins: Number, badgeKey: { type: String, default: null }, perks: [String] }, { _id: false }),
      required: true,
    },
  },
  { _id: false },
);

const levelSetSchema = new Schema<LevelSetDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    version: { type: Number, required: true },
    levels: { type: [levelSchema], default: [] },
    createdByOperation: { type: Schema.Types.Mixed, default: {} },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'level_sets', versionKey: false, minimize: false },
);
// Read by _id (= appId) only; no other index needed.

export const levelSetModel = (db: Connection): Model<LevelSetDoc> =>
  (db.models.LevelSet as Model<LevelSetDoc> | undefined) ?? db.model<LevelSetDoc>('LevelSet', levelSetSchema);
