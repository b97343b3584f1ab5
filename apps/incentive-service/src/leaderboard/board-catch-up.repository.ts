import type { Connection } from 'mongoose';
import { DocumentWriteQueue, Repository } from '@ris/mongo';
import { boardCatchUpModel, type BoardCatchUpDoc } from './board-catch-up.model';

/** The apps whose Redis boards missed an update (board-catch-up.model.ts): one mark per app, under its appId. */
export class BoardCatchUpRepository extends Repository<BoardCatchUpDoc> {
  /** Misses while Redis is down: one write per round trip however many events arrive. */
  private readonly misses: DocumentWriteQueue<BoardCatchUpDoc>;

  constructor(db: Connection) {
    super(boardCatchUpModel(db));
    this.misses = new DocumentWriteQueue(this.collection);
  }

  /** Counts a missed update of the app's boards (its mark made on the first). */
  miss(appId: string): Promise<void> {
    return this.misses.increment(appId, { _id: appId }, { misses: 1 }, { since: new Date() });
  }

  /** The app's mark, if its boards are behind. */
  ofApp(appId: string): Promise<BoardCatchUpDoc | null> {
    return this.collection.findById(appId, appId);
  }

  /** Removes the app's mark if no update was missed since it was read (`misses` still the same): false otherwise. */
  async clear(appId: string, misses: number): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: appId, misses })) > 0;
  }

  /** The marks of every app (a handful at most): the catch-up loop, which serves every app and rebuilds each with its appId. */
  marks(limit: number): Promise<BoardCatchUpDoc[]> {
    return this.acrossApps.find({}).limit(limit).lean<BoardCatchUpDoc[]>().exec();
  }
}
