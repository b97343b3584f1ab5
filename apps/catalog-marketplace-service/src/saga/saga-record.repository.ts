import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { GroupedInserts, Repository, SerialByKey } from '@ris/mongo';
import type { DebitKnowledge, SagaState } from './redemption-saga-machine';
import type { SagaRecord } from './saga-record';

/** A move's change: the fields it sets and the events stored with them, given the time of the write. */
export type MoveChange<R> = (now: Date) => { set: Partial<R>; events: DomainEvent[] };

/**
 * The redemption records of one kind (catalog, marketplace) as their saga
 * reads and writes them: every write is conditional on the state (or the
 * lease) it was decided from, so a request and the recovery pass racing on
 * a record cannot both move it, and runs under the record's lock
 * (SerialByKey: FerretDB's updates are not atomic), the outbox relay's
 * clean-up of its events too.
 */
export abstract class SagaRecordRepository<R extends SagaRecord> extends Repository<R> {
  private readonly lock = new SerialByKey();
  /** A step's events, stored with the move that closes the step. */
  private readonly events: OutboxCarrier;
  /** The RESERVING records of concurrent redemptions, inserted together. */
  private readonly inserts: GroupedInserts<R>;

  protected constructor(model: Model<R>, outbox: Outbox) {
    super(model);
    this.events = outbox.carrier(model, { lock: { run: (doc, work) => this.lock.run(doc._id, work) } });
    this.inserts = new GroupedInserts(this.collection);
  }

  /**
   * Stores a fresh record, complete (no defaults are filled in), in one
   * insertMany with the other redemptions' that arrive together; false
   * when its _id (or another unique key) is taken.
   */
  insert(record: R): Promise<boolean> {
    return this.inserts.insertNew(record);
  }

  /**
   * Moves the record from state `from` with `change` and its events, in one
   * write. The record after it, or null when it was no longer in `from`
   * (someone else moved it first; the events were not stored).
   */
  moveFrom(record: R, from: SagaState, change: MoveChange<R>): Promise<R | null> {
    return this.lock.run(record._id, async () => {
      const now = new Date();
      const { set, events } = change(now);
      const carried = this.events.carry(events, now);
      const moved = await this.collection.findOneAndUpdate(
        record.appId,
        { _id: record._id, state: from } as FilterQuery<R>,
        carried.update({ $set: set }) as UpdateQuery<R>,
      );
      if (moved && events.length > 0) {
        crashPoint('redemption.closed');
        carried.written(moved);
      }
      return moved;
    });
  }

  /** Takes the lease of a record as it was read (state, open, lease): of two takers only one gets it; null for the other. */
  claim(record: R, leaseUntil: Date, holder: string): Promise<R | null> {
    return this.lock.run(record._id, () =>
      this.collection.findOneAndUpdate(
        record.appId,
        { _id: record._id, state: record.state, open: true, leaseUntil: record.leaseUntil } as FilterQuery<R>,
        { $set: { leaseUntil, holder } } as UpdateQuery<R>,
      ),
    );
  }

  /** Ends the record's lease now, if it is still in the state read. */
  async endLease(record: R): Promise<void> {
    await this.lock.run(record._id, () =>
      this.collection.updateOne(record.appId, { _id: record._id, state: record.state } as FilterQuery<R>, {
        $set: { leaseUntil: new Date() },
      } as UpdateQuery<R>),
    );
  }

  /** What replaying the debit of a COMPENSATING record found out about it. */
  async recordDebit(record: R, debit: DebitKnowledge): Promise<void> {
    await this.lock.run(record._id, () =>
      this.collection.updateOne(record.appId, { _id: record._id, state: 'COMPENSATING' } as FilterQuery<R>, { $set: { debit } } as UpdateQuery<R>),
    );
  }

  /**
   * Records with work owed, oldest lease first, of every app: the recovery
   * pass, a system job that handles each under its own appId. Open records
   * are the work in flight: few.
   */
  openAcrossApps(limit: number): Promise<R[]> {
    return this.acrossApps
      .find({ open: true } as FilterQuery<R>)
      .sort({ leaseUntil: 1 })
      .limit(limit)
      .lean<R[]>()
      .exec();
  }

  /**
   * A record by its id alone: the recovery sweep's, for a stock marker,
   * which knows only its holder's id (and a listing's holders belong to
   * other apps than the listing's).
   */
  byIdAcrossApps(id: string): Promise<R | null> {
    return this.acrossApps.findOne({ _id: id } as FilterQuery<R>).lean<R>().exec();
  }
}
