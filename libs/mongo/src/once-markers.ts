import { Schema, type Connection, type Model } from 'mongoose';
import { insertOnce } from './insert-once';

export interface OnceMarker {
  _id: string;
  appId: string;
  data: Record<string, unknown> | null;
  at: Date;
}

const onceMarkerSchema = new Schema<OnceMarker>(
  {
    // `${appId}:${key}`: the unique key that decides who was first.
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    data: { type: Schema.Types.Mixed, default: null },
    at: { type: Date, required: true },
  },
  { collection: 'once_markers', versionKey: false },
);

/**
 * "Has this happened already?", decided by a unique key: the first caller
 * inserts the marker and gets true; every later or concurrent caller gets
 * false. An insert under a unique index is the write MongoDB and FerretDB
 * both decide atomically; FerretDB v1 runs a conditional update as a read
 * and then a write, so two concurrent `{status: 'A'} → 'B'` updates can
 * both "succeed" there. Use a marker where exactly one caller may act (a
 * state left once, a counter bumped once), then update the document.
 */
export class OnceMarkers {
  private readonly model: Model<OnceMarker>;

  constructor(db: Connection) {
    this.model = (db.models.OnceMarker as Model<OnceMarker> | undefined) ?? db.model<OnceMarker>('OnceMarker', onceMarkerSchema);
  }

  /** True for the one caller that recorded `key` first (per app). */
  async first(appId: string, key: string, data: Record<string, unknown> | null = null): Promise<boolean> {
    if (!appId) throw new Error('appId is required for every query');
    return insertOnce(this.model, { _id: `${appId}:${key}`, appId, data, at: new Date() });
  }

  /**
   * Removes the marker, so the next first() of `key` is true again: for a
   * state that can be left and reached again (a referral that is no longer
   * completed once its last conversion was rejected).
   */
  async forget(appId: string, key: string): Promise<void> {
    if (!appId) throw new Error('appId is required for every query');
    await this.model.deleteOne({ _id: `${appId}:${key}`, appId }).exec();
  }

  /** The marker `key`, to see what the first caller recorded. */
  get(appId: string, key: string): Promise<OnceMarker | null> {
    return this.model.findOne({ _id: `${appId}:${key}`, appId }).lean<OnceMarker>().exec();
  }
}
