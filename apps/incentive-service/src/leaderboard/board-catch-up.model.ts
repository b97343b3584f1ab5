import { Schema, type Connection, type Model } from 'mongoose';

/**
 * An app whose Redis board missed an update (Redis was down). The catch-up
 * loop rebuilds it from MongoDB once Redis answers, then removes this.
 * Kept in MongoDB, not memory, so a restart or another replica finishes it.
 */
export interface BoardCatchUpDoc {
  /** The appId. */
  _id: string;
  appId: string;
  /** The first missed update since the last rebuild. */
  since: Date;
  /** Missed updates so far: a rebuild clears the mark only if none was added while it ran. */
  misses: number;
}

const catchUpSchema = new Schema<BoardCatchUpDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    since: { type: Date, required: true },
    misses: { type: Number, default: 0 },
  },
  { collection: 'board_catch_up', versionKey: false },
);
// Read whole (a handful of apps at most) by the catch-up loop; no index needed.

export const boardCatchUpModel = (db: Connection): Model<BoardCatchUpDoc> =>
  (db.models.BoardCatchUp as Model<BoardCatchUpDoc> | undefined) ?? db.model<BoardCatchUpDoc>('BoardCatchUp', catchUpSchema);
