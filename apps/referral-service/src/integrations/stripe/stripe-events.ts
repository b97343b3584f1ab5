import type { Logger } from '@ris/logging';
import { SerialByKey, type Page, type PageQuery } from '@ris/mongo';
import type { Applied, StripeEventApplier } from './apply-stripe-event';
import type { SaleLinkRepository } from './sale-link.repository';
import { keysLinkedBy, mapStripeEvent } from './stripe-event-mapping';
import { WAIT_MS } from './stripe-event-state';
import type { StripeEventDoc, StripeEventStatusName } from './stripe-event.model';
import type { StripeEventRepository } from './stripe-event.repository';
import type { StripeIntegrations } from './stripe-integrations';
import { verifiedStripeEvent } from './stripe-signature';

/** What one delivery of an event came to. */
export interface Received {
  event: StripeEventDoc;
  /** Stripe delivered it before: nothing new was done (a wake-up a crash may have cut short aside). */
  duplicate: boolean;
}

/**
 * The events Stripe posts to the apps' integrations (docs/api.md#stripe):
 * verified, recorded once per event (`<appId>:<event id>`), applied
 * (apply-stripe-event.ts) and answered, so Stripe's retry of an event
 * whose application failed for a passing reason finishes it, and its retry
 * of one applied changes nothing.
 *
 * Out of order: an event that needs what has not arrived (a renewal
 * before its checkout, a refund before its sale) is stored WAITING for a
 * sale key; whatever later links that key (the checkout, the invoice)
 * applies the events waiting for it. Each side writes first and looks
 * second (the waiting event is stored, then looks for the link again; the
 * link is stored, then the waiting events are read), so one of the two
 * always sees the other, on any number of replicas.
 */
export class StripeEvents {
  /** One application of an event at a time in this process (a retry of Stripe's beside a wake-up). */
  private readonly applying = new SerialByKey();

  constructor(
    private readonly integrations: StripeIntegrations,
    private readonly events: StripeEventRepository,
    private readonly links: SaleLinkRepository,
    private readonly applier: StripeEventApplier,
    private readonly logger: Logger,
  ) {}

  /** ReceiveStripeEvent: a delivery to the endpoint of `integrationId`, its body's exact bytes and its Stripe-Signature header. */
  async receive(integrationId: string, payload: Uint8Array, signature: string): Promise<Received> {
    const { integration, secret } = await this.integrations.forEndpoint(integrationId);
    const verified = verifiedStripeEvent(payload, signature, secret);
    const mapped = mapStripeEvent(verified);
    const { appId } = integration;
    const now = new Date();
    const final = mapped.intent.kind === 'ignore' ? 'IGNORED' : mapped.intent.kind === 'unmatched' ? 'UNMATCHED' : null;
    const { doc, created } = await this.events.record(appId, {
      _id: `${appId}:${mapped.id}`,
      integrationId: integration._id,
      campaignId: integration.campaignId,
      stripeEventId: mapped.id,
      type: mapped.type,
      livemode: mapped.livemode,
      createdAt: mapped.createdAt,
      receivedAt: now,
      intent: mapped.intent,
      // What the event alone decides is final at once; the rest is applied now.
      status: final ?? 'RECEIVED',
      reasonCode: 'reasonCode' in mapped.intent ? mapped.intent.reasonCode : '',
      reason: 'reason' in mapped.intent ? mapped.intent.reason : '',
      conversionId: null,
      purchaseId: null,
      reversalId: null,
      waitingFor: null,
      waitUntil: null,
      settledAt: final ? now : null,
    });
    if (final) return { event: doc, duplicate: !created };
    const { event, linked } = await this.applyOnce(doc, created);
    await this.wake(appId, linked);
    return { event, duplicate: !created };
  }

  /** GET /integrations/stripe/events: the app's events newest first, of one public status (stripe-event-state.ts) or all. */
  list(appId: string, status: StripeEventStatusName | null, page: PageQuery): Promise<Page<StripeEventDoc>> {
    return this.events.page(appId, status, new Date(), page);
  }

  /**
   * Applies the event unless it is settled; the keys to wake after. A
   * settled one is answered as it is, and an applied one (MATCHED) wakes
   * again what its links wait for: the wake-up of its first delivery may
   * have been cut short by a crash, and Stripe retries an event it got no
   * answer for.
   */
  private applyOnce(doc: StripeEventDoc, fresh: boolean): Promise<{ event: StripeEventDoc; linked: string[] }> {
    return this.applying.run(doc._id, async () => {
      const current = fresh ? doc : ((await this.events.findById(doc.appId, doc._id)) ?? doc);
      const waitingStill = current.status === 'WAITING' && current.waitUntil !== null && current.waitUntil > new Date();
      if (current.status === 'RECEIVED' || waitingStill) return this.applyNow(current);
      return { event: current, linked: current.status === 'MATCHED' ? keysLinkedBy(current.intent) : [] };
    });
  }

  private async applyNow(doc: StripeEventDoc, lookedAgain = false): Promise<{ event: StripeEventDoc; linked: string[] }> {
    const applied: Applied = await this.applier.apply(doc);
    const now = new Date();
    if (applied.status === 'WAITING') {
      const until = new Date(doc.receivedAt.getTime() + WAIT_MS);
      if (until <= now) return this.settle(doc, { status: 'UNMATCHED', reasonCode: 'NOT_MATCHED_IN_TIME', reason: applied.reason, conversionId: null, purchaseId: null, reversalId: null, linked: [] });
      const stored = (await this.events.wait(doc.appId, doc._id, { key: applied.key, until, reasonCode: applied.reasonCode, reason: applied.reason }, now)) ?? doc;
      // Stored first, then looked again: a sale linked meanwhile looked for waiting events before this one was there.
      if (!lookedAgain && (await this.links.firstOf(doc.appId, [applied.key]))) return this.applyNow(stored, true);
      return { event: stored, linked: [] };
    }
    return this.settle(doc, applied);
  }

  private async settle(doc: StripeEventDoc, applied: Exclude<Applied, { status: 'WAITING' }>): Promise<{ event: StripeEventDoc; linked: string[] }> {
    const { linked, ...outcome } = applied;
    const event = (await this.events.settle(doc.appId, doc._id, outcome, new Date())) ?? { ...doc, ...outcome };
    return { event, linked };
  }

  /**
   * Applies the events waiting for the keys just linked, each once, and
   * what they link in turn (a renewal waiting for its checkout links its
   * invoice, which a refund of it waited for). One that fails for a passing
   * reason stays WAITING and fails the delivery that woke it: Stripe
   * retries that event, and its retry (applied already) wakes them again.
   */
  private async wake(appId: string, keys: string[]): Promise<void> {
    let failure: unknown = null;
    let next = keys;
    while (next.length > 0) {
      const woken = await Promise.all(next.map((key) => this.events.waitingOn(appId, key, new Date())));
      const linked: string[] = [];
      for (const doc of woken.flat()) {
        try {
          linked.push(...(await this.applyOnce(doc, false)).linked);
        } catch (err) {
          this.logger.warn({ err, eventId: doc.stripeEventId, appId }, 'a waiting Stripe event could not be applied yet; it waits for the retry of the event that woke it');
          failure ??= err;
        }
      }
      next = [...new Set(linked)];
    }
    if (failure !== null) throw failure;
  }
}
