import { Schema, type Connection, type Model } from 'mongoose';
import { isDuplicateKeyError } from '@ris/mongo';
import type { DomainEvent } from './domain-event';

export interface OutboxEntry {
  _id: string;
  type: string;
  appId: string;
  event: string;
  createdAt: Date;
  publishedAt: Date | null;
  lockedUntil: Date;
  attempts: number;
}

const outboxSchema = new Schema<OutboxEntry>(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    appId: { type: String, required: true },
    // The JSON exactly as it will be published.
    event: { type: String, required: true },
    createdAt: { type: Date, required: true },
    publishedAt: { type: Date, default: null },
    lockedUntil: { type: Date, required: true },
    attempts: { type: Number, default: 0 },
  },
  { collection: 'outbox', versionKey: false },
);
// The relay's scan: unpublished entries, oldest first.
// Also serves the clean-up of published entries by age.
outboxSchema.index({ publishedAt: 1, createdAt: 1 });

/**
 * Events wait here, in the service's own database, until the relay has
 * published them. A service writes its state change, then its events here
 * (ids derived from the change, so a retried request rewrites the same
 * entries); NATS being down at that moment loses nothing.
 */
export class Outbox {
  readonly model: Model<OutboxEntry>;
  private listeners: Array<() => void> = [];

  constructor(connection: Connection) {
    this.model = connection.models.OutboxEntry ?? connection.model<OutboxEntry>('OutboxEntry', outboxSchema);
  }

  async add(events: DomainEvent | DomainEvent[]): Promise<void> {
    const list = Array.isArray(events) ? events : [events];
    if (list.length === 0) return;
    const now = new Date();
    try {
      await this.model.insertMany(
        list.map((event) => ({
          _id: event.id,
          type: event.type,
          appId: event.appId,
          event: JSON.stringify(event),
          createdAt: now,
          publishedAt: null,
          lockedUntil: new Date(0),
          attempts: 0,
        })),
        { ordered: false },
      );
    } catch (err) {
      // Already there from an earlier attempt of the same change: fine.
      if (!isDuplicateKeyError(err)) throw err;
    }
    for (const listener of this.listeners) listener();
  }

  /** The relay subscribes so new entries go out at once instead of at the next poll. */
  onAdded(listener: () => void): void {
    this.listeners.push(listener);
  }
}
