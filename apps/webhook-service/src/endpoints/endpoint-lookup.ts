import type { EndpointDoc } from './endpoint.model';
import type { EndpointRepository } from './endpoint.repository';

/** How long the dispatcher reuses an endpoint it read: a change made through another replica shows within this. */
export const ENDPOINT_LOOKUP_TTL_MS = 1000;

interface Entry {
  doc: Promise<EndpointDoc | null>;
  readAt: number;
}

/**
 * The endpoints as the dispatcher reads them before each attempt, kept for
 * a second: a busy endpoint's attempts share one read instead of one each
 * (hundreds a second to one receiver). This process's own changes (the
 * API's update, delete and rotation, the failure streak, a secret moved to
 * the current key) forget the endpoint at once, so they apply to the next
 * attempt as before; another replica's show within ENDPOINT_LOOKUP_TTL_MS,
 * as an attempt already in flight when a change is made still ends.
 */
export class EndpointLookup {
  private readonly entries = new Map<string, Entry>();
  /** Changes this process made (forget): a read of many that overlapped one is not remembered. */
  private changes = 0;

  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly ttlMs = ENDPOINT_LOOKUP_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The endpoint, or null when it does not exist (deleted meanwhile). */
  find(appId: string, endpointId: string): Promise<EndpointDoc | null> {
    const key = `${appId}\n${endpointId}`;
    const at = this.now();
    const entry = this.entries.get(key);
    if (entry && at - entry.readAt < this.ttlMs) return entry.doc;
    if (this.entries.size > 10_000) this.dropExpired(at);
    const doc = this.endpoints.findById(appId, endpointId);
    const fresh: Entry = { doc, readAt: at };
    this.entries.set(key, fresh);
    // A failed read is not kept: the next attempt asks again.
    doc.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return doc;
  }

  /** This process changed the endpoint: the next attempt reads it again. */
  forget(endpoint: Pick<EndpointDoc, '_id' | 'appId'>): void {
    this.changes += 1;
    this.entries.delete(`${endpoint.appId}\n${endpoint._id}`);
  }

  /** A read of many endpoints (the fan-out's) is about to start: hand this to remember() with its answer. */
  startRead(): { at: number; changes: number } {
    return { at: this.now(), changes: this.changes };
  }

  /**
   * Keeps endpoints read elsewhere (the fan-out reads an app's enabled
   * endpoints anyway) as if the dispatcher had read them then: an app's
   * first attempts to hundreds of endpoints need no read each. Not when
   * this process changed an endpoint meanwhile: the read may be older than
   * the change.
   */
  remember(docs: EndpointDoc[], read: { at: number; changes: number }): void {
    if (read.changes !== this.changes) return;
    for (const doc of docs) {
      const key = `${doc.appId}\n${doc._id}`;
      if ((this.entries.get(key)?.readAt ?? -Infinity) >= read.at) continue;
      this.entries.set(key, { doc: Promise.resolve(doc), readAt: read.at });
    }
  }

  private dropExpired(at: number): void {
    for (const [key, entry] of this.entries) if (at - entry.readAt >= this.ttlMs) this.entries.delete(key);
  }
}
