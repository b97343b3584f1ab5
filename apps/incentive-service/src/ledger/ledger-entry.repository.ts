import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { GroupCommit, Repository, type Page, type PageQuery } from '@ris/mongo';
import { ledgerEntryId } from '../events/derived-ids';
import { ledgerEntryModel, type LedgerEntryDoc } from './ledger-entry.model';

/** The ledger's entries (ledger-entry.model.ts): written once each, in slot order per user (ledger.ts says how). */
export class LedgerEntryRepository extends Repository<LedgerEntryDoc> {
  constructor(db: Connection) {
    super(ledgerEntryModel(db));
  }

  /** Events stored with the entries that commit what they announce (entries are never written again). */
  carrier(outbox: Outbox): OutboxCarrier {
    return outbox.carrier(this.collection.model);
  }

  /** The entry in slot `seq` of a user's ledger, if filled. */
  at(appId: string, userId: string, seq: number): Promise<LedgerEntryDoc | null> {
    return this.collection.findById(appId, ledgerEntryId(appId, userId, seq));
  }

  /** The entry of a movement key (event:<id>, debit:<operation>…), if it was recorded. */
  withKey(appId: string, key: string): Promise<LedgerEntryDoc | null> {
    return this.collection.findOne(appId, { key });
  }

  /**
   * Inserts entries into consecutive slots, in order: false when one was
   * taken (its slot by another writer's entry, or its key recorded before),
   * and those after it are not inserted.
   *
   * The fills of several users that arrive together (the users of one call,
   * of concurrent calls) go in one ordered insert, one round trip instead of
   * one each. Should that stop on a duplicate, the fills wholly before the
   * stop are in, and every other fill of the batch is tried again on its
   * own, so each caller gets the answer it would get alone (the stopped
   * fill finds its own entries in their slots with their keys, which the
   * ledger counts as its own: see whatGotIn).
   */
  async fill(entries: LedgerEntryDoc[]): Promise<boolean> {
    const inserted = await this.fills.add(entries);
    if (inserted instanceof Error) throw inserted;
    return inserted;
  }

  /**
   * A fill alone: whether it went in, or its own error (one user's failed
   * insert is that user's answer, not the batch's).
   */
  private fillAlone(entries: LedgerEntryDoc[]): Promise<boolean | Error> {
    return this.insertInOrder(entries).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  }

  private readonly fills = new GroupCommit<LedgerEntryDoc[], boolean | Error>(
    async (fills) => {
      if (fills.length === 1) return [await this.fillAlone(fills[0])];
      // Any failure of the combined insert (a duplicate that does not say
      // where, or any other error) leaves every fill to be tried alone: the
      // fills it stored find their entries in their slots (see above).
      const inserted = await this.insertedInOrder(fills.flat()).catch(() => null);
      let end = 0;
      return Promise.all(
        fills.map((entries) => {
          end += entries.length;
          return inserted !== null && end <= inserted ? true : this.fillAlone(entries);
        }),
      );
    },
    // A fill is one user's entries: a single event's, or up to a bulk call's for that user.
    { maxBatch: 64 },
  );

  /** GET /incentives/balances/{userId}/transactions: newest first. */
  ofUser(appId: string, userId: string, page: PageQuery): Promise<Page<LedgerEntryDoc>> {
    return this.collection.page(appId, { userId }, { seq: -1 }, page);
  }

  /** ofUser() of every entry, as a stream (an export). */
  allOfUser(appId: string, userId: string): AsyncIterable<LedgerEntryDoc> {
    return this.collection.stream(appId, { userId }, { seq: -1 });
  }

  /** Every entry, of one app or, without one, of every app, by app, user and slot: the balance rebuild (tools/incentive-rebuild-balances.mjs). */
  inUserOrder(appId?: string): AsyncIterable<LedgerEntryDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .sort({ appId: 1, userId: 1, seq: 1 })
      .lean<LedgerEntryDoc>()
      .cursor();
  }

  /** Every entry, of one app or, without one, of every app: the series recount (tools/incentive-rebuild-series.mjs). */
  all(appId?: string): AsyncIterable<LedgerEntryDoc> {
    return this.acrossApps
      .find(appId ? { appId } : {})
      .lean<LedgerEntryDoc>()
      .cursor();
  }
}
