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
    this.entries.delete(`${endpoint.appId}\n${endpoint._id}`);
  }

  private dropExpired(at: number): void {
    for (const [key, entry] of this.entries) if (at - entry.readAt >= this.ttlMs) this.entries.delete(key);
  }
}
