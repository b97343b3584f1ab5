import type { Connection } from 'mongoose';
import { GroupedInserts, Repository } from '@ris/mongo';
import { storedId } from './signal-subject';
import { signalModel, type SignalDoc } from './signal.model';

/** A signal as scored: `_id` is its subject (signal-subject.ts), without the app. */
export type NewSignal = Omit<SignalDoc, 'appId'>;

/** An attribute of the end user's context that links signals. */
export type ContextAttribute = 'ip' | 'deviceId' | 'email';

export interface TimeRange {
  from: Date;
  to: Date;
}

const within = (range: TimeRange) => ({ $gte: range.from, $lte: range.to });

/**
 * The stored signals: every question scoring and a flag's evidence ask of
 * them, by name; each is one indexed query (signal.model.ts names the index
 * of each). The velocity counts are not asked of them: SignalWindows keeps
 * those on write.
 */
export class SignalRepository extends Repository<SignalDoc> {
  /** The signals of scores made at the same moment: one insert for them all. */
  private readonly grouped: GroupedInserts<SignalDoc>;

  constructor(db: Connection) {
    super(signalModel(db));
    this.grouped = new GroupedInserts(this.collection);
  }

  /**
   * Idempotent by the signal's subject: a rescore or retry keeps the first
   * one (an insert under the unique _id; inserts cost no scan on FerretDB,
   * where an upsert would read the whole collection). Concurrent scores'
   * signals share one insert.
   */
  async record(appId: string, signal: NewSignal): Promise<void> {
    await this.grouped.insertNew({ ...signal, appId, _id: storedId(appId, signal._id) });
  }

  /** Many signals (of any apps) in one insert; each idempotent by its subject, as in record(). */
  async recordMany(signals: Array<{ appId: string; signal: NewSignal }>): Promise<void> {
    await this.insertNew(signals.map(({ appId, signal }) => ({ ...signal, appId, _id: storedId(appId, signal._id) })));
  }

  /** The signal of a subject (`null`: never scored). */
  ofSubject(appId: string, subjectId: string): Promise<SignalDoc | null> {
    return this.findById(appId, storedId(appId, subjectId));
  }

  /** The referral signal of a code: its referrer's own context, however old. */
  referralSignalOf(appId: string, referralCode: string): Promise<SignalDoc | null> {
    return this.collection.findOne(appId, { referralCode, kind: 'REFERRAL' });
  }

  /** Clicks on a code in the window, newest first, at most `limit`. */
  clicksOnCode(appId: string, referralCode: string, window: TimeRange, limit: number): Promise<SignalDoc[]> {
    return this.collection.find(appId, { referralCode, kind: 'CLICK', at: within(window) }, { sort: { at: -1 }, limit });
  }

  /** Signals of any kind sharing one attribute's value in the window, newest first, at most `limit`. */
  sharing(appId: string, attribute: ContextAttribute, value: string, window: TimeRange, limit: number): Promise<SignalDoc[]> {
    return this.collection.find(appId, { [attribute]: value, at: within(window) }, { sort: { at: -1 }, limit });
  }
}
