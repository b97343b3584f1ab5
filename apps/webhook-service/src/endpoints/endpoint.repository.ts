import type { Connection, FilterQuery } from 'mongoose';
import { crashPoint } from '@ris/config';
import type { DomainEvent, Outbox, OutboxCarrier } from '@ris/events';
import { Repository, SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import { endpointModel, type EndpointDoc, type PreviousSecret, type StoredSecret } from './endpoint.model';

/** What a change of an endpoint's settings writes (url, events, description, enabled and its reason). */
export type EndpointSettings = Partial<Pick<EndpointDoc, 'url' | 'events' | 'description' | 'enabled' | 'disabledReason' | 'disabledAt' | 'failingSince' | 'updatedAt'>>;

/** An endpoint's signing secrets as stored (and what a rotation writes with them). */
export type EndpointSecretsFields = { secret: StoredSecret; previousSecrets: PreviousSecret[] } & Partial<Pick<EndpointDoc, 'secretSetByOperation' | 'updatedAt'>>;

/**
 * Matches the endpoint only while its current secret is still the one read.
 * A sealed secret is named by its nonce: random per sealing, and kept by a
 * rewrap (which changes only the wrapped data key), so a rewrap and a
 * rotation of the same endpoint cannot undo each other.
 */
function unchanged(secret: StoredSecret): FilterQuery<EndpointDoc> {
  return typeof secret === 'string' ? { secret } : { 'secret.nonce': secret.nonce };
}

/**
 * The webhook endpoints: their settings, signing secrets and failure
 * streak, by name (endpoint.model.ts names the index of each).
 */
export class EndpointRepository extends Repository<EndpointDoc> {
  /**
   * This process's writes of an endpoint's failure streak run one at a
   * time (EndpointHealth says why), and the relay's clean-up of the
   * events a disabling stored takes the same lock: on FerretDB it is one
   * more update of the endpoint.
   */
  private readonly healthWrites = new SerialByKey();
  /** webhook.endpoint_disabled, stored with the disabling. */
  private readonly events: OutboxCarrier;

  constructor(db: Connection, outbox: Outbox) {
    super(endpointModel(db));
    this.events = outbox.carrier(this.collection.model, { lock: { run: (doc, work) => this.healthWrites.run(doc._id, work) } });
  }

  /** A new endpoint under an id derived from the request's operation key, or the one that key already made (`created` says which). */
  create(appId: string, endpoint: Omit<EndpointDoc, 'appId'>): Promise<{ doc: EndpointDoc; created: boolean }> {
    return this.insertOrGet(appId, endpoint);
  }

  /** GET /webhooks: the app's endpoints, newest first. */
  list(appId: string, page: PageQuery): Promise<Page<EndpointDoc>> {
    return this.collection.page(appId, {}, { createdAt: -1, _id: -1 }, page);
  }

  /** The endpoints an event of this app fans out to (filtered by subscription by the caller). */
  enabled(appId: string): Promise<EndpointDoc[]> {
    return this.collection.find(appId, { enabled: true });
  }

  /** The endpoint after the change, or null when there is none (deleted meanwhile). */
  change(appId: string, endpointId: string, settings: EndpointSettings): Promise<EndpointDoc | null> {
    return this.collection.findOneAndUpdate(appId, { _id: endpointId }, { $set: settings });
  }

  /** Whether there was such an endpoint to delete. */
  async remove(appId: string, endpointId: string): Promise<boolean> {
    return (await this.collection.deleteOne(appId, { _id: endpointId })) > 0;
  }

  /** Stores the endpoint's secrets anew (moved under another key) if its current secret is still the one read; whether it was. */
  async storeSecretsIfUnchanged(endpoint: Pick<EndpointDoc, '_id' | 'appId' | 'secret'>, fields: EndpointSecretsFields): Promise<boolean> {
    return (await this.collection.updateOne(endpoint.appId, { _id: endpoint._id, ...unchanged(endpoint.secret) }, { $set: fields })) > 0;
  }

  /** A rotation: the new secrets if the current secret is still the one read; the endpoint after, or null (rotated meanwhile). */
  rotateIfUnchanged(endpoint: Pick<EndpointDoc, '_id' | 'appId' | 'secret'>, fields: EndpointSecretsFields): Promise<EndpointDoc | null> {
    return this.collection.findOneAndUpdate(endpoint.appId, { _id: endpoint._id, ...unchanged(endpoint.secret) }, { $set: fields });
  }

  /** A success ends the endpoint's failure streak. */
  async clearFailing(endpoint: EndpointDoc): Promise<void> {
    await this.healthWrites.run(endpoint._id, () =>
      this.collection.updateOne(endpoint.appId, { _id: endpoint._id, failingSince: { $ne: null } }, { $set: { failingSince: null } }),
    );
  }

  /** The first failure since the last success starts the streak (unless another attempt did). */
  async startFailing(endpoint: EndpointDoc, at: Date): Promise<void> {
    await this.healthWrites.run(endpoint._id, () =>
      this.collection.updateOne(endpoint.appId, { _id: endpoint._id, failingSince: null }, { $set: { failingSince: at } }),
    );
  }

  /**
   * Disables the endpoint for FAILING, with `events` stored in the same
   * update and published right after it, if it is still enabled and has
   * been failing since `failingBefore` or earlier. null: another attempt
   * (or replica) disabled it first, or it recovered.
   */
  disable(endpoint: EndpointDoc, at: Date, failingBefore: Date, events: DomainEvent[]): Promise<EndpointDoc | null> {
    return this.healthWrites.run(endpoint._id, async () => {
      const carried = this.events.carry(events, at);
      const disabled = await this.collection.findOneAndUpdate(
        endpoint.appId,
        { _id: endpoint._id, enabled: true, failingSince: { $lte: failingBefore } },
        carried.update({ $set: { enabled: false, disabledReason: 'FAILING', disabledAt: at, updatedAt: at } }),
      );
      if (!disabled) return null;
      crashPoint('webhook.endpoint_disabled');
      carried.written(disabled);
      return disabled;
    });
  }

  /**
   * Endpoints an earlier release left disabled with their event still owed,
   * at most `limit`. Across apps on purpose (a maintenance pass); each
   * write after it carries the endpoint's appId.
   */
  pendingDisabled(limit: number): Promise<EndpointDoc[]> {
    return this.acrossApps.find({ disabledEventPending: true }).limit(limit).lean<EndpointDoc[]>().exec();
  }

  /** Stores the owed `events` and clears the note, in one update (if nobody did). */
  async announceDisabled(endpoint: EndpointDoc, events: DomainEvent[]): Promise<void> {
    const carried = this.events.carry(events);
    const cleared = await this.healthWrites.run(endpoint._id, () =>
      this.collection.findOneAndUpdate(endpoint.appId, { _id: endpoint._id, disabledEventPending: true }, carried.update({ $set: { disabledEventPending: false } })),
    );
    if (cleared) carried.written(cleared);
  }

  /** Every endpoint of one app, or of all (a maintenance command over the secrets): a cursor. */
  every(appId?: string): AsyncIterable<EndpointDoc> {
    return this.acrossApps.find(appId ? { appId } : {}).lean<EndpointDoc>().cursor();
  }

  /** Only the stored secrets of every endpoint of one app, or of all (the same command's count). */
  secretsOfEvery(appId?: string): AsyncIterable<Pick<EndpointDoc, 'secret' | 'previousSecrets'>> {
    return this.acrossApps.find(appId ? { appId } : {}, { secret: 1, previousSecrets: 1 }).lean<EndpointDoc>().cursor();
  }
}
