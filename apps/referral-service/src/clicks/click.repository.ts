import type { Connection } from 'mongoose';
import type { Outbox, OutboxCarrier } from '@ris/events';
import { Repository } from '@ris/mongo';
import { clickModel, type ClickDoc } from './click.model';

/** What a recount of the campaign counters reads of a click. */
export type ClickCountRow = Pick<ClickDoc, 'appId' | 'campaignId' | 'clickedAt'>;

/** The stored clicks: written in batches, never changed; counted per referrer (click.model.ts names the index). */
export class ClickRepository extends Repository<ClickDoc> {
  /** referral.clicked, a batch's stored with its clicks (never written again: no lock). */
  readonly events: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    super(clickModel(db));
    this.events = outbox.carrier(this.collection.model);
  }

  /**
   * A batch of complete clicks (of any apps) in one ordered insert: a click
   * is stored only once every click before it is, so a batch's events,
   * carried on an app's last click, are stored with all its clicks.
   */
  insertBatch(clicks: ClickDoc[]): Promise<void> {
    return this.collection.insertMany(clicks, { ordered: true });
  }

  /** How many clicks a referrer's codes had, in one campaign or in all (GET /users/{userId}/stats). */
  countOfReferrer(appId: string, referrerId: string, campaignId?: string): Promise<number> {
    return this.collection.count(appId, campaignId ? { referrerId, campaignId } : { referrerId });
  }

  /** Every click's campaign and time, of one app or, without one, of every app: a maintenance pass (tools/referral-rebuild-stats.mjs). */
  countRows(appId?: string): AsyncIterable<ClickCountRow> {
    return this.collection.model
      .find(appId ? { appId } : {}, { appId: 1, campaignId: 1, clickedAt: 1 })
      .lean<ClickCountRow>()
      .cursor();
  }
}
