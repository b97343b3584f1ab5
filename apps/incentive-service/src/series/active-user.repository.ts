import type { Connection } from 'mongoose';
import { Repository, type SeriesRange } from '@ris/mongo';
import { activeUserModel, type ActiveUserDoc } from './active-user.model';

/** The per user and bucket markers of active users (active-user.model.ts). */
export class ActiveUserRepository extends Repository<ActiveUserDoc> {
  constructor(db: Connection) {
    super(activeUserModel(db));
  }

  /** Inserts the markers in one write (each once, by _id): per marker, whether this call made it. */
  mark(markers: ActiveUserDoc[]): Promise<boolean[]> {
    return this.insertNew(markers);
  }

  /** Every marker, of one app or, without one, of every app: a maintenance pass (tools/incentive-rebuild-series.mjs). */
  all(appId?: string): AsyncIterable<ActiveUserDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .lean<ActiveUserDoc>()
      .cursor();
  }

  /** The distinct users with a marker of the range's interval in the range (one aggregation). */
  distinctUsers(appId: string, range: SeriesRange): Promise<number> {
    return this.collection.countDistinct(appId, 'userId', {
      interval: range.interval,
      partition: { $in: range.partitions },
      start: { $gte: range.start, $lt: range.end },
    });
  }
}
