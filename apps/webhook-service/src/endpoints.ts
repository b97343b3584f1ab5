import type { Connection } from 'mongoose';
import { AppScoped, newId, type Page, type PageQuery } from '@ris/mongo';
import { Code, characterCount, invalidArgument, notFound, rpcError } from '@ris/rpc';
import { endpointModel, type EndpointDoc } from './endpoint.model';
import { generateSecret } from './signing';
import { ResolutionUnavailableError, TargetRefusedError, checkTarget, parseWebhookUrl, type Resolver } from './url-guard';
import { isSubscribable, type WebhookEventName } from './webhook-events';

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

/** After a rotation the previous secret keeps signing this long, so receivers can switch over. */
export const SECRET_ROTATION_GRACE_MS = 24 * 3600 * 1000;
const MAX_DESCRIPTION = 500;
const ROTATE_ATTEMPTS = 5;

/** The secrets that sign a delivery now: the current one, then any still in their grace period. */
export function activeSecrets(endpoint: Pick<EndpointDoc, 'secret' | 'previousSecrets'>, now: Date = new Date()): string[] {
  return [endpoint.secret, ...endpoint.previousSecrets.filter((p) => p.expiresAt > now).map((p) => p.secret)];
}

export function subscribes(endpoint: Pick<EndpointDoc, 'events'>, event: WebhookEventName): boolean {
  return endpoint.events.length === 0 || endpoint.events.includes(event);
}

function cleanEvents(events: string[]): WebhookEventName[] {
  const unique = [...new Set(events)];
  const unknown = unique.filter((name) => !isSubscribable(name));
  if (unknown.length) throw invalidArgument(`unknown webhook events: ${unknown.join(', ')}`, { field: 'events', unknown });
  return unique as WebhookEventName[];
}

function cleanDescription(description: string | null | undefined): string | null {
  const text = description?.trim() ?? '';
  if (characterCount(text) > MAX_DESCRIPTION) throw invalidArgument(`description must be at most ${MAX_DESCRIPTION} characters`);
  return text || null;
}

/** Webhook endpoints of each app: CRUD, URL checks and secret rotation. */
export class Endpoints {
  private readonly endpoints: AppScoped<EndpointDoc>;

  constructor(
    db: Connection,
    private readonly policy: TargetPolicy,
  ) {
    this.endpoints = new AppScoped(endpointModel(db));
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
          throw rpcError(Code.FailedPrecondition, err.reason, err.message, { field: 'url' });
        }
        throw invalidArgument(err.message, { field: 'url', reason: err.reason });
      }
      if (err instanceof ResolutionUnavailableError) throw rpcError(Code.Unavailable, 'UNAVAILABLE', err.message);
      throw err;
    }
  }

  async create(appId: string, input: EndpointInput): Promise<{ endpoint: EndpointDoc; secret: string }> {
    const url = await this.checkUrl(input.url);
    const now = new Date();
    const secret = generateSecret();
    const endpoint = await this.endpoints.create(appId, {
      _id: newId('whe'),
      url,
      events: cleanEvents(input.events),
      description: cleanDescription(input.description),
      enabled: true,
      disabledReason: null,
      disabledAt: null,
      disabledEventPending: false,
      failingSince: null,
      secret,
      previousSecrets: [],
      createdAt: now,
      updatedAt: now,
    });
    return { endpoint, secret };
  }

  async get(appId: string, endpointId: string): Promise<EndpointDoc> {
    const endpoint = await this.endpoints.findOne(appId, { _id: endpointId });
    if (!endpoint) throw notFound('Webhook endpoint', { webhookId: endpointId });
    return endpoint;
  }

  /** The endpoint, or null when it was deleted meanwhile (the dispatcher's view). */
  find(appId: string, endpointId: string): Promise<EndpointDoc | null> {
    return this.endpoints.findOne(appId, { _id: endpointId });
  }

  list(appId: string, page: PageQuery): Promise<Page<EndpointDoc>> {
    return this.endpoints.page(appId, {}, { createdAt: -1, _id: -1 }, page);
  }

  /** The endpoints an event of this app fans out to (filtered by subscription by the caller). */
  enabled(appId: string): Promise<EndpointDoc[]> {
    return this.endpoints.find(appId, { enabled: true });
  }

  async update(appId: string, endpointId: string, patch: EndpointPatch): Promise<EndpointDoc> {
    const current = await this.get(appId, endpointId);
    const set: Partial<EndpointDoc> = { updatedAt: new Date() };
    if (patch.url !== undefined) set.url = await this.checkUrl(patch.url);
    if (patch.events !== undefined) set.events = cleanEvents(patch.events);
    if (patch.description !== undefined) set.description = cleanDescription(patch.description);
    if (patch.enabled === true && !current.enabled) {
      // A fresh start: the failure streak that disabled it is forgotten.
      Object.assign(set, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
    } else if (patch.enabled === false && current.enabled) {
      Object.assign(set, { enabled: false, disabledReason: 'MANUAL', disabledAt: set.updatedAt });
    }
    const updated = await this.endpoints.findOneAndUpdate(appId, { _id: endpointId }, { $set: set });
    if (!updated) throw notFound('Webhook endpoint', { webhookId: endpointId });
    return updated;
  }

  async delete(appId: string, endpointId: string): Promise<void> {
    if ((await this.endpoints.deleteOne(appId, { _id: endpointId })) === 0) throw notFound('Webhook endpoint', { webhookId: endpointId });
  }

  /**
   * A new current secret; the old one signs too for 24 h. Guarded by the
   * secret it replaces, so two concurrent rotations cannot both "win" and
   * leave a caller holding a secret that was overwritten.
   */
  async rotateSecret(appId: string, endpointId: string): Promise<{ endpoint: EndpointDoc; secret: string }> {
    for (let attempt = 0; attempt < ROTATE_ATTEMPTS; attempt += 1) {
      const current = await this.get(appId, endpointId);
      const now = new Date();
      const secret = generateSecret();
      const previousSecrets = [
        { secret: current.secret, expiresAt: new Date(now.getTime() + SECRET_ROTATION_GRACE_MS) },
        ...current.previousSecrets.filter((p) => p.expiresAt > now),
      ];
      const endpoint = await this.endpoints.findOneAndUpdate(
        appId,
        { _id: endpointId, secret: current.secret },
        { $set: { secret, previousSecrets, updatedAt: now } },
      );
      if (endpoint) return { endpoint, secret };
    }
    throw rpcError(Code.Aborted, 'CONFLICT', 'The secret was rotated concurrently; try again.');
  }
}
