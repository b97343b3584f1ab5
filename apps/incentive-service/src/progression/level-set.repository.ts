import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import type { LevelDef } from './level-progress';
import { levelSetModel, type LevelSetDoc } from './level-set.model';

/** The apps' level ladders (level-set.model.ts): one document per app, changed only by a compare-and-set on its version. */
export class LevelSetRepository extends Repository<LevelSetDoc> {
  constructor(db: Connection) {
    super(levelSetModel(db));
  }

  /** The app's ladder document (its _id is the appId), or null before its first level. */
  ofApp(appId: string): Promise<LevelSetDoc | null> {
    return this.collection.findById(appId, appId);
  }

  /**
   * Stores `levels` (and `alsoSet`) as the ladder's next version, if it is
   * still at `version` (0: none yet, created now): false when someone else
   * changed it first.
   */
  replaceAt(appId: string, version: number, levels: LevelDef[], alsoSet: Record<string, unknown> = {}): Promise<boolean> {
    return this.collection.compareAndSet(
      appId,
      { _id: appId, version },
      { $set: { levels, updatedAt: new Date(), ...alsoSet }, $inc: { version: 1 } },
      { upsert: version === 0 },
    );
  }
}
