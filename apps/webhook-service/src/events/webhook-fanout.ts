import type { DomainEvent } from '@ris/events';
import { GroupCommit } from '@ris/mongo';
import { currentTraceparent } from '@ris/telemetry';
import type { Deliveries } from '../deliveries/deliveries';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import type { ClaimedDelivery } from '../deliveries/delivery.repository';
import type { DeliveryIntake } from '../dispatch/dispatcher';
import { ENDPOINT_LOOKUP_TTL_MS } from '../endpoints/endpoint-lookup';
import type { EndpointDoc } from '../endpoints/endpoint.model';
import { subscribes, type Endpoints } from '../endpoints/endpoints';
import { WEBHOOK_EVENT_OF_DOMAIN_TYPE, recipientApps } from './webhook-events';

export type QueuedDelivery = Pick<DeliveryDoc, '_id' | 'endpointId'>;

interface Arrival {
  event: DomainEvent;
  /** The trace of the event's handling, which its deliveries continue. */
  traceparent?: string;
  /** The stream sent the event before: its deliveries may be stored already. */
  redelivered: boolean;
}

/** Events one flush fans out; with 1,000 endpoints an app's event alone is 1,000 deliveries. */
const FAN_OUT_BATCH = 64;
/**
 * Fan-outs at once: each may wait up to the window for its first attempts,
 * so two keep the slots busy while one stores, and no more: the deliveries
 * of a third would only wait behind them, past their window.
 */
const FAN_OUT_CONCURRENCY = 2;
/**
 * Deliveries sent before they are stored, per insert: about what the
 * dispatcher runs at once (WEBHOOK_MAX_IN_FLIGHT), so they end well inside
 * the window.
 */
const SENT_FIRST = 256;
/**
 * A batch sends groups of SENT_FIRST first for this long at most, so its
 * events are acknowledged within a few seconds; a wide fan-out (events to
 * hundreds of endpoints) stores the rest first.
 */
const SENT_FIRST_BUDGET_MS = 3000;
/** How long a fan-out's insert waits, at most, for the first attempts of its deliveries (PendingInsert). */
export const FIRST_ATTEMPT_WINDOW_MS = 1000;

/**
 * The durable consumer's handler: one domain event becomes one delivery per
 * enabled endpoint (of each recipient app) subscribed to its webhook event.
 * An endpoint receives the events that occur after it was created: a new
 * endpoint is not flooded with the stream's history, e.g. when the consumer
 * is catching up after a restart.
 *
 * Events handled together are fanned out together (group commit): one read
 * of each app's enabled endpoints and one insert of their deliveries, and
 * each event is acknowledged only after its deliveries are stored. Those
 * the dispatcher will start soon are handed over before they are stored,
 * and their insert waits up to `firstAttemptWindowMs` for their first
 * attempts, so a delivery that succeeds at once is stored finished, with
 * no update (PendingInsert); the others are stored first, leased to the
 * dispatcher as far as it has room, or due, for it (or another replica) to
 * claim. A redelivered event's deliveries may be stored already: its batch
 * is stored first and only those it stored are sent, so a redelivery does
 * not send them again.
 */
export function fanOutToWebhooks(
  endpoints: Endpoints,
  deliveries: Deliveries,
  intake: DeliveryIntake,
  firstAttemptWindowMs = FIRST_ATTEMPT_WINDOW_MS,
): (event: DomainEvent, delivery?: { redelivered: boolean }) => Promise<void> {
  const batches = new GroupCommit<Arrival, void>(
    async (arrivals) => {
      // An event twice in one batch (a redelivery beside the first try) is fanned out once.
      const seen = new Set<string>();
      const distinct = arrivals.filter(({ event }) => !seen.has(event.id) && Boolean(seen.add(event.id)));
      const wanted = distinct.flatMap(({ event, traceparent }) => {
        const name = WEBHOOK_EVENT_OF_DOMAIN_TYPE[event.type];
        return name ? recipientApps(event).map((appId) => ({ appId, event, name, traceparent })) : [];
      });
      const apps = [...new Set(wanted.map((w) => w.appId))];
      const enabled = new Map<string, EndpointDoc[]>(await Promise.all(apps.map(async (appId) => [appId, await endpoints.enabled(appId)] as const)));
      const docs = wanted.flatMap(({ appId, event, name, traceparent }) => {
        const occurredAt = new Date(event.occurredAt).getTime();
        const targets = enabled.get(appId)!.filter((endpoint) => subscribes(endpoint, name) && !(endpoint.createdAt.getTime() > occurredAt));
        return deliveries.forEvent(appId, targets, event, name, traceparent);
      });
      if (docs.length === 0) return arrivals.map(() => undefined);
      const mayBeStored = firstAttemptWindowMs <= 0 || arrivals.some((a) => a.redelivered);
      // Read again (one query per app) for groups sent later, so their attempts need no read each.
      const readAgain = () => Promise.all(apps.map((appId) => endpoints.enabled(appId)));
      await handOver(docs, intake, deliveries, mayBeStored ? 0 : firstAttemptWindowMs, readAgain);
      return arrivals.map(() => undefined);
    },
    { maxBatch: FAN_OUT_BATCH, concurrency: FAN_OUT_CONCURRENCY },
  );
  return (event, delivery) =>
    WEBHOOK_EVENT_OF_DOMAIN_TYPE[event.type]
      ? batches.add({ event, traceparent: currentTraceparent(), redelivered: delivery?.redelivered ?? false })
      : Promise.resolve();
}

/**
 * Leases what the dispatcher has room for (a lease per endpoint, so the
 * writes that go by lease touch one endpoint's deliveries), hands it over
 * and stores all. Those it will start soon go before they are stored, in
 * groups of SENT_FIRST, each stored by an insert that waits for their first
 * attempts, one group after another for up to SENT_FIRST_BUDGET_MS; the
 * others, and what is left then, are stored first and handed over leased,
 * or left due. `windowMs` 0: everything stored first.
 */
async function handOver(
  docs: DeliveryDoc[],
  intake: DeliveryIntake,
  deliveries: Deliveries,
  windowMs: number,
  readEndpointsAgain: () => Promise<unknown>,
): Promise<void> {
  const startedAt = Date.now();
  const leases = new Map<string, { lease: string; leaseUntil: Date; backlogUntil: Date; room: number; soon: number }>();
  const soon: ClaimedDelivery[] = [];
  const leased: ClaimedDelivery[] = [];
  const rest: DeliveryDoc[] = [];
  for (const doc of docs) {
    let endpoint = leases.get(doc.endpointId);
    if (!endpoint) {
      endpoint = { ...intake.newLease(), room: intake.room(doc.endpointId), soon: windowMs > 0 ? intake.startsSoon(doc.endpointId) : 0 };
      leases.set(doc.endpointId, endpoint);
    }
    if (endpoint.room <= 0) {
      rest.push(doc);
      continue;
    }
    endpoint.room -= 1;
    const claim = { delivery: doc, lease: endpoint.lease };
    const startsSoon = endpoint.soon > 0;
    // One that waits in line gets a lease that outlasts the wait of a usual backlog, so it needs no renewal.
    Object.assign(doc, { lease: endpoint.lease, leaseUntil: startsSoon ? endpoint.leaseUntil : endpoint.backlogUntil, claimable: false });
    if (startsSoon) {
      endpoint.soon -= 1;
      soon.push(claim);
    } else {
      leased.push(claim);
      rest.push(doc);
    }
  }
  const storeFirst = async (stored: DeliveryDoc[], claims: ClaimedDelivery[]) => {
    const kept = new Set(await deliveries.queue(stored));
    const storedLeased = claims.filter((c) => kept.has(c.delivery));
    if (storedLeased.length) intake.takeLeased(storedLeased);
    const due = stored.filter((doc) => doc.lease === null && kept.has(doc));
    if (due.length) intake.enqueue(due.map(({ _id, endpointId }) => ({ _id, endpointId })));
  };
  const sendingFirst = (async () => {
    let next = 0;
    let endpointsReadAt = startedAt;
    while (next < soon.length && Date.now() - startedAt < SENT_FIRST_BUDGET_MS) {
      if (Date.now() - endpointsReadAt > ENDPOINT_LOOKUP_TTL_MS / 2) {
        await readEndpointsAgain();
        endpointsReadAt = Date.now();
      }
      const group = soon.slice(next, next + SENT_FIRST);
      next += group.length;
      const insert = deliveries.pendingInsert(group.map((c) => c.delivery), group.length, windowMs);
      intake.takeLeased(group.map((claim) => ({ ...claim, insert })));
      await insert.stored;
    }
    const left = soon.slice(next);
    // Past the budget: they join the backlog, under its longer lease.
    for (const { delivery } of left) delivery.leaseUntil = leases.get(delivery.endpointId)!.backlogUntil;
    if (left.length) await storeFirst(left.map((c) => c.delivery), left);
  })();
  await Promise.all([storeFirst(rest, leased), sendingFirst]);
}
