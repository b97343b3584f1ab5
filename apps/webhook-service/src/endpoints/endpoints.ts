import { characterCount } from '@ris/contracts';
import { invalid, notFound, refused, unavailable } from '@ris/domain-errors';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import type { EnvelopeCipher } from '@ris/secrets';
import { EndpointSecrets } from '../signing/endpoint-secrets';
import { EndpointLookup } from './endpoint-lookup';
import type { EndpointDoc } from './endpoint.model';
import type { EndpointRepository, EndpointSettings } from './endpoint.repository';
import { generateSecret } from '../signing/signing';
import { ResolutionUnavailableError, TargetRefusedError, checkTarget, parseWebhookUrl, type Resolver } from '../targets/url-guard';
import { isSubscribable, type WebhookEventName } from '../events/webhook-events';

export interface EndpointInput {
  url: string;
  events: string[];
  description?: string | null;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface TargetPolicy {
  allowPrivateTargets: boolean;
  /** Tests inject a resolver; production uses the system's. */
  resolve?: Resolver;
}

const MAX_DESCRIPTION = 500;

export function subscribes(endpoint: Pick<EndpointDoc, 'events'>, event: WebhookEventName): boolean {
  return endpoint.events.length === 0 || endpoint.events.includes(event);
}

function cleanEvents(events: string[]): WebhookEventName[] {
  const unique = [...new Set(events)];
  const unknown = unique.filter((name) => !isSubscribable(name));
  if (unknown.length) throw invalid(`unknown webhook events: ${unknown.join(', ')}`, { field: 'events', unknown });
  return unique as WebhookEventName[];
}

function cleanDescription(description: string | null | undefined): string | null {
  const text = description?.trim() ?? '';
  if (characterCount(text) > MAX_DESCRIPTION) throw invalid(`description must be at most ${MAX_DESCRIPTION} characters`);
  return text || null;
}

/** Webhook endpoints of each app: CRUD, URL checks and secret rotation. */
export class Endpoints {
  /** Their signing secrets, encrypted at rest under `cipher`'s master keys. */
  readonly secrets: EndpointSecrets;
  /** The dispatcher's reads, kept for a second (EndpointLookup); this module's changes forget them. */
  private readonly lookup: EndpointLookup;

  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly policy: TargetPolicy,
    cipher: EnvelopeCipher,
  ) {
    this.secrets = new EndpointSecrets(endpoints, cipher);
    this.lookup = new EndpointLookup(endpoints);
  }

  /** Checks a URL as the dispatcher will before each attempt; returns it normalised. */
  async checkUrl(raw: string): Promise<string> {
    try {
      const url = parseWebhookUrl(raw);
      await checkTarget(url, this.policy);
      return url.toString();
    } catch (err) {
      if (err instanceof TargetRefusedError) {
        // A host that does not resolve, or resolves to an address the deployment refuses, is a
        // well-formed URL the world refuses (422); a malformed one breaks the contract (400).
        if (err.reason === 'UNRESOLVABLE_HOST' || err.reason === 'PRIVATE_TARGET') {
          throw refused(err.reason, err.message, { field: 'url' });
        }
        throw invalid(err.message, { field: 'url', reason: err.reason });
      }
      if (err instanceof ResolutionUnavailableError) throw unavailable(err.message);
      throw err;
    }
  }

  /**
   * A new endpoint and its secret, shown once. A retry of the request that
   * created it (same operation key) is answered with that endpoint and its
   * current secret: the first answer never reached the caller.
   */
  async create(appId: string, input: EndpointInput, operationKey = ''): Promise<{ endpoint: EndpointDoc; secret: string }> {
    const url = await this.checkUrl(input.url);
    const now = new Date();
    const id = idFromOperation('whe', operationKey);
    const secret = generateSecret();
    const made = await this.endpoints.create(appId, {
      _id: id,
      url,
      events: cleanEvents(input.events),
      description: cleanDescription(input.description),
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      disabledEventPending: false,
      failingSince: null,
      secret: this.secrets.seal({ _id: id, appId }, secret),
      previousSecrets: [],
      createdByOperation: operationKey || null,
      secretSetByOperation: operationKey || null,
      createdAt: now,
      updatedAt: now,
    });
    if (made.created) return { endpoint: made.doc, secret };
    return { endpoint: made.doc, secret: this.secrets.current(made.doc) };
  }

  async get(appId: string, endpointId: string): Promise<EndpointDoc> {
    const endpoint = await this.endpoints.findById(appId, endpointId);
    if (!endpoint) throw notFound('Webhook endpoint', { webhookId: endpointId });
    return endpoint;
  }

  /**
   * The endpoint, or null when it was deleted meanwhile (the dispatcher's
   * view, before each attempt): read at most ENDPOINT_LOOKUP_TTL_MS ago, or
   * since this process last changed it.
   */
  find(appId: string, endpointId: string): Promise<EndpointDoc | null> {
    return this.lookup.find(appId, endpointId);
  }

  /** This process changed the endpoint outside this module (its failure streak, its secrets' key): read it afresh. */
  forget(endpoint: Pick<EndpointDoc, '_id' | 'appId'>): void {
    this.lookup.forget(endpoint);
  }

  list(appId: string, page: PageQuery): Promise<Page<EndpointDoc>> {
    return this.endpoints.list(appId, page);
  }

  /** The endpoints an event of this app fans out to (filtered by subscription by the caller). */
  async enabled(appId: string): Promise<EndpointDoc[]> {
    const read = this.lookup.startRead();
    const docs = await this.endpoints.enabled(appId);
    // The dispatcher's attempts of these deliveries use this read instead of one each.
    this.lookup.remember(docs, read);
    return docs;
  }

  async update(appId: string, endpointId: string, patch: EndpointPatch): Promise<EndpointDoc> {
    const current = await this.get(appId, endpointId);
    const set: EndpointSettings = { updatedAt: new Date() };
    if (patch.url !== undefined) set.url = await this.checkUrl(patch.url);
    if (patch.events !== undefined) set.events = cleanEvents(patch.events);
    if (patch.description !== undefined) set.description = cleanDescription(patch.description);
    if (patch.enabled === true && !current.enabled) {
      // A fresh start: the failure streak that disabled it is forgotten.
      Object.assign(set, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    } else if (patch.enabled === false && current.enabled) {
      Object.assign(set, { enabled: false, disabledReason: 'MANUAL', disabledAt: set.updatedAt });
    }
    const updated = await this.endpoints.change(appId, endpointId, set);
    this.lookup.forget({ _id: endpointId, appId });
    if (!updated) throw notFound('Webhook endpoint', { webhookId: endpointId });
    return updated;
  }

  async delete(appId: string, endpointId: string): Promise<void> {
    const removed = await this.endpoints.remove(appId, endpointId);
    this.lookup.forget({ _id: endpointId, appId });
    if (!removed) throw notFound('Webhook endpoint', { webhookId: endpointId });
  }

  /**
   * A new current secret; the old one signs too for 24 h (EndpointSecrets.rotate).
   * A retry of the request that set the current secret (same operation key)
   * is answered with it instead of rotating again.
   */
  async rotateSecret(appId: string, endpointId: string, operationKey = ''): Promise<{ endpoint: EndpointDoc; secret: string }> {
    if (operationKey) {
      const endpoint = await this.get(appId, endpointId);
      if (endpoint.secretSetByOperation === operationKey) return { endpoint, secret: this.secrets.current(endpoint) };
    }
    const rotated = await this.secrets.rotate(endpointId, () => this.get(appId, endpointId), operationKey);
    this.lookup.forget(rotated.endpoint);
    return rotated;
  }
}
