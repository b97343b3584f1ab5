import { KeyedGroupCommit } from '@ris/mongo';
import type { EventInput, EventRecorder, RecordOutcome, RecordedEvent } from './record-events';

/**
 * Most events per batch: far below MAX_EVENTS_PER_CALL, so that a batch
 * (and the wait of whoever arrives behind it) stays a few users' writes long.
 */
const MAX_BATCH = 100;

/**
 * POST /incentives/events, one event a call, by group commit: the single
 * calls of one app that arrive together are recorded as one bulk call of
 * the recorder, so they share its claim insert and release, its event
 * insert (with the events' outbox entries on one document) and the relay's
 * clean-up of it, which each call otherwise paid alone; each user's
 * balance write stays its own.
 *
 * Each call is answered with its own outcome of that batch, which is what
 * it would have got alone: the recorder already answers every event of a
 * bulk call on its own (a bad event fails alone, with its own error), keeps
 * each user's events in input order (here: arrival), treats the same key
 * twice as one event and a duplicate, and decides the rules (cooldown,
 * maxRepeats) per user against the balance. A failure of one user's
 * balance writes is the error of that user's calls only (usersFailAlone);
 * a failure of what the batch shares (the claim or event insert: the
 * database) is every call's error, as each would have met it alone.
 *
 * When to flush: at once. A call that finds nothing queued or in flight is
 * sent on the next turn of the event loop (no timer: alone it does not
 * wait), and the calls that arrive while a batch is being written form the
 * next one, so the batches grow with the load by themselves instead of by
 * a window that every call would pay. Two batches may be in flight per app
 * (GroupCommit's default), so a batch is collected while one is written.
 */
export class SingleEventCommit {
  private readonly commit: KeyedGroupCommit<EventInput, RecordOutcome>;

  constructor(recorder: EventRecorder) {
    this.commit = new KeyedGroupCommit((appId, inputs) => recorder.record(appId, inputs, { usersFailAlone: true }), { maxBatch: MAX_BATCH });
  }

  /** Records one event of `appId` with the others of the moment; rejects with its own error. */
  async record(appId: string, input: EventInput): Promise<RecordedEvent> {
    const outcome = await this.commit.add(appId, input);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }
}
