import type { Logger } from '@ris/logging';
import { SpanKind, inSpan } from '@ris/telemetry';
import { retryDelayMs } from './backoff-schedule';
import type { ClaimedDelivery, DeliveryQueue } from './delivery-queue';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import type { EndpointHealth } from '../endpoints/endpoint-health';
import type { Endpoints } from '../endpoints/endpoints';
import { signedHeaders } from '../signing/signing';
import type { Resolver } from '../targets/url-guard';
import { postWebhook } from './webhook-http-client';
import { webhookAttemptDuration, webhookAttempts, webhookDeliveries } from './webhook-metrics';

export interface DispatcherOptions {
  /** Seconds before each retry (backoff-schedule.ts). */
  schedule: readonly number[];
  timeoutMs: number;
  maxInFlight: number;
  maxInFlightPerEndpoint: number;
  pollIntervalMs: number;
  allowPrivateTargets: boolean;
  resolve?: Resolver;
  /** On stop, attempts in flight get this long to finish before they are cut (and released, uncounted). */
  stopGraceMs?: number;
}

export type ReadyDelivery = Pick<DeliveryDoc, '_id' | 'endpointId'>;

/**
 * What the fan-out hands the dispatcher: deliveries it stored already
 * leased for it (as many as `room` allows: no claim to write), and those it
 * stored unleased (the dispatcher claims them, or another replica does).
 */
export interface DeliveryIntake {
  /** How many more deliveries to this endpoint the dispatcher takes now under its lease. */
  room(endpointId: string): number;
  /**
   * Of those, how many it would start soon: the endpoint has few waiting
   * (handed over before they are stored, these wait for their first attempt
   * inside a fan-out's window; a slow endpoint's go stored first).
   */
  startsSoon(endpointId: string): number;
  /**
   * The lease to store them under: until `leaseUntil` for those it starts
   * soon, `backlogUntil` for those that wait in line (BACKLOG_LEASE_MS).
   */
  newLease(): { lease: string; leaseUntil: Date; backlogUntil: Date };
  /** Stored under that lease: sent as slots free up. */
  takeLeased(claims: ClaimedDelivery[]): void;
  /** Stored without a lease. */
  enqueue(deliveries: ReadyDelivery[]): void;
}

interface InFlight {
  endpointId: string;
  startedAt: number;
  /** Its HTTP request is still running. */
  requesting: boolean;
  stop: AbortController;
  done: Promise<void>;
}

/** Lease = timeout + this: room to record the outcome after the slowest attempt. */
const LEASE_MARGIN_MS = 10_000;
/**
 * The due query asks, this often at most, also for deliveries whose lease
 * ran out (a dispatcher died holding them): on FerretDB that reads every
 * pending delivery, a backlog held under leases included.
 */
const SWEEP_INTERVAL_MS = 10_000;
/** Due deliveries fetched per query; attempts then start from this list as slots free up. */
const READY_BATCH = 256;
const MAX_READY = 4 * READY_BATCH;
/**
 * Deliveries leased at creation waiting for a slot, per endpoint and in
 * all (a few kB each in memory): a burst's backlog. Past it the fan-out
 * stores them unleased and the dispatcher claims them later, which on
 * FerretDB costs a scan of the pending deliveries per claim.
 */
const LEASED_PER_ENDPOINT = 10_000;
const MAX_LEASED = 50_000;
/**
 * An endpoint with fewer than this waiting for a slot starts what it is
 * handed within a fan-out's window (FIRST_ATTEMPT_WINDOW_MS): at a few ms
 * per attempt and 4 slots, 128 take a fraction of it. A slow or hanging
 * endpoint soon has more waiting, and its deliveries are stored first.
 */
const SOON_PER_ENDPOINT = 128;
/** An attempt running longer than this marks its receiver slow: its new deliveries are stored first. */
const SLOW_ATTEMPT_MS = 250;
/**
 * Deliveries stored leased to wait in line (a wide fan-out's, a busy
 * endpoint's) hold their lease this much longer than an attempt needs, so
 * a backlog that drains within a minute needs no renewal (a write per
 * delivery); a crash delays them by at most this much more.
 */
const BACKLOG_LEASE_MS = 60_000;
/** A delivery that waited for its slot until less than timeout + this is left of its lease renews it first. */
const RENEW_MARGIN_MS = 5_000;
/** Waiting leases that would need renewing within this long are renewed with the one that needs it now… */
const RENEW_AHEAD_MS = 5_000;
/**
 * …but only those of the deliveries next in line at each endpoint: a lease
 * renewed too early just needs renewing again, and renewing a whole backlog
 * (thousands of documents, every few seconds) held every dispatch pass.
 */
const RENEW_AHEAD_PER_ENDPOINT = 64;
/** Deliveries renewed in one pass, at most, besides those about to start (a write by _id each, in one round trip per lease). */
const MAX_RENEWED = 512;

/**
 * Sends due deliveries. It claims them from MongoDB with a lease (a
 * conditional update: PENDING, due, lease expired; see DeliveryQueue) and
 * starts their attempts without waiting for them, within two bounds:
 * WEBHOOK_MAX_IN_FLIGHT attempts in this process, and
 * WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT per endpoint. Endpoints at their bound
 * are left out, so a slow or hanging receiver holds a few slots for at most
 * the timeout and never the queue: everyone else's deliveries keep flowing
 * past its backlog.
 *
 * A query fetches up to 256 due deliveries into a ready list; attempts
 * start from it as slots free up (claimed in batches), and the database is
 * asked again only when that may find something new (see mayFindMore), and
 * never holding up the attempts (lookForDue): a query per batch, not per delivery; deliveries created in this process are
 * handed over directly (enqueue). A pass runs when deliveries are queued,
 * when an attempt ends (a slot is free), and every WEBHOOK_POLL_INTERVAL_MS
 * (retries coming due, other replicas' work).
 *
 * The fan-out of this process stores most new deliveries already leased to
 * it (DeliveryIntake: up to LEASED_PER_ENDPOINT waiting per endpoint), so
 * they need no claim at all; one that waited long for its slot renews its
 * lease before its attempt. An endpoint's slot is held for the HTTP
 * request only: outcomes are recorded in groups (DeliveryQueue), and an
 * attempt counts against WEBHOOK_MAX_IN_FLIGHT until its outcome is stored.
 */
export class Dispatcher implements DeliveryIntake {
  private readonly inFlight = new Map<string, InFlight>();
  /** First attempts done, whose outcomes wait for their fan-out's insert (out of inFlight: they hold no place). */
  private readonly recording = new Set<Promise<void>>();
  /** Deliveries leased at creation (takeLeased), per endpoint in arrival order, waiting for a slot. */
  private readonly leased = new Map<string, ClaimedDelivery[]>();
  /**
   * Those of them not stored yet (a fan-out's insert waits for their first
   * attempts, PendingInsert): started before the stored ones, so they end
   * inside the window, and a backlog stored leased never makes them wait.
   */
  private readonly sendingFirst = new Map<string, ClaimedDelivery[]>();
  private leasedCount = 0;
  private readonly perEndpoint = new Map<string, number>();
  private readonly leaseMs: number;
  /** Due deliveries not started yet (their endpoint was busy, or no slot was free). */
  private ready: ReadyDelivery[] = [];
  /** Work may be due that is not listed (the poll timer): the next pass queries. */
  private readyStale = true;
  /** The last query returned a full batch: more may be due than is listed. */
  private lastFetchFull = false;
  /** Endpoints the last query left out because they were busy. */
  private skippedAtFetch: string[] = [];
  private timer?: NodeJS.Timeout;
  private queryTimer?: NodeJS.Timeout;
  private querying = false;
  /** The next query waits until then (lookForDue). */
  private queryNotBefore = 0;
  /** When the last sweep (the due query that also finds leases run out) started; the first query is one. */
  private sweptAt = 0;
  private filling = false;
  private again = false;
  private stopped = true;

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly endpoints: Endpoints,
    private readonly health: EndpointHealth,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {
    // Longer than an attempt can take (the timeout covers all of it), so a
    // live attempt never loses its lease; a crashed one is retried after it.
    this.leaseMs = options.timeoutMs + LEASE_MARGIN_MS;
  }

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.nudge();
      this.timer = setTimeout(tick, this.options.pollIntervalMs);
      this.timer.unref();
    };
    tick();
  }

  /**
   * Deliveries just created (or made due) in this process: listed at once,
   * so sending them needs no query. Those of other replicas are found by the
   * poll.
   */
  enqueue(deliveries: ReadyDelivery[]): void {
    const listed = new Set(this.ready.map((r) => r._id));
    const fresh = deliveries.filter((d) => !listed.has(d._id));
    const room = MAX_READY - this.ready.length;
    this.ready.push(...fresh.slice(0, room));
    // Did not fit: the next pass finds the rest by querying.
    this.nudge(fresh.length > room);
  }

  room(endpointId: string): number {
    if (this.stopped) return 0;
    const waiting = (this.leased.get(endpointId)?.length ?? 0) + (this.sendingFirst.get(endpointId)?.length ?? 0);
    return Math.max(0, Math.min(LEASED_PER_ENDPOINT - waiting, MAX_LEASED - this.leasedCount));
  }

  startsSoon(endpointId: string): number {
    if (this.stopped) return 0;
    // A receiver slow to answer would hold the fan-out's insert for the whole window.
    const slowSince = Date.now() - SLOW_ATTEMPT_MS;
    for (const attempt of this.inFlight.values()) if (attempt.endpointId === endpointId && attempt.requesting && attempt.startedAt < slowSince) return 0;
    return Math.max(0, SOON_PER_ENDPOINT - (this.sendingFirst.get(endpointId)?.length ?? 0));
  }

  newLease(): { lease: string; leaseUntil: Date; backlogUntil: Date } {
    const lease = this.queue.newLease(new Date(), this.leaseMs);
    return { ...lease, backlogUntil: new Date(lease.leaseUntil.getTime() + BACKLOG_LEASE_MS) };
  }

  takeLeased(claims: ClaimedDelivery[]): void {
    if (this.stopped) {
      // Too late to send them here: given back, so the next process (or replica) sends them at once.
      void this.queue.releaseAll(claims).catch((err) => this.logger.warn({ err }, 'giving back leased deliveries failed; they go when their lease runs out'));
      return;
    }
    for (const claim of claims) {
      const lists = claim.insert ? this.sendingFirst : this.leased;
      const waiting = lists.get(claim.delivery.endpointId);
      if (waiting) waiting.push(claim);
      else lists.set(claim.delivery.endpointId, [claim]);
    }
    this.leasedCount += claims.length;
    this.nudge(false);
  }

  /**
   * Runs a pass now, or right after the one in progress. `newWork`:
   * something may have become due that is not listed (the poll timer, work
   * of other replicas), so the pass queries the database too.
   */
  nudge(newWork = true): void {
    if (this.stopped) return;
    if (newWork) this.readyStale = true;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = true;
    void this.fill()
      .catch((err) => this.logger.warn({ err }, 'webhook dispatch pass failed; will retry'))
      .finally(() => {
        this.filling = false;
        if (this.again && !this.stopped) {
          this.again = false;
          this.nudge(false);
        }
      });
  }

  /**
   * Stops claiming, lets attempts in flight finish for a grace period, then
   * cuts the rest: their leases are released without counting an attempt,
   * so the next process (or replica) sends them at once.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.queryTimer) clearTimeout(this.queryTimer);
    while (this.filling) await new Promise((resolve) => setTimeout(resolve, 10));
    const waiting = [...this.sendingFirst.values(), ...this.leased.values()].flat();
    this.sendingFirst.clear();
    this.leased.clear();
    this.leasedCount = 0;
    await this.queue.releaseAll(waiting).catch((err) => this.logger.warn({ err }, 'giving back leased deliveries failed; they go when their lease runs out'));
    const running = [...this.inFlight.values()];
    const cut = setTimeout(() => running.forEach((f) => f.stop.abort()), this.options.stopGraceMs ?? 5000);
    await Promise.all([...running.map((f) => f.done), ...this.recording]);
    clearTimeout(cut);
  }

  private async fill(): Promise<void> {
    await this.startReady();
    this.lookForDue();
  }

  /**
   * Asks the database for due deliveries when that may find something
   * (mayFindMore), beside the launching: attempts keep starting from the
   * lists while it runs. It reads the deliveries nobody holds (an
   * equality FerretDB serves from an index); every SWEEP_INTERVAL_MS it
   * also looks for leases run out, which on FerretDB reads every pending
   * delivery. Either way the next query waits four times as long as the
   * last took, which keeps a slow one to a fifth of the time.
   */
  private lookForDue(): void {
    if (this.querying || this.stopped || this.inFlight.size >= this.options.maxInFlight) return;
    if (!this.mayFindMore() || this.ready.length >= MAX_READY) return;
    const wait = this.queryNotBefore - Date.now();
    if (wait > 0) {
      this.queryTimer ??= setTimeout(() => {
        this.queryTimer = undefined;
        this.lookForDue();
      }, wait);
      return;
    }
    this.querying = true;
    // Cleared before the query: new work signalled while it runs makes the next pass look again.
    this.readyStale = false;
    const busy = this.busyEndpoints();
    const started = Date.now();
    const sweep = started - this.sweptAt >= SWEEP_INTERVAL_MS;
    if (sweep) this.sweptAt = started;
    void this.queue
      .due(new Date(started), READY_BATCH, busy, sweep)
      .then((fetched) => {
        this.skippedAtFetch = busy;
        // Mostly new: the query left out the busy endpoints, to which what is still listed belongs.
        // But an attempt ending meanwhile can make one of them free again, so drop repeats.
        const listed = new Set(this.ready.map((r) => r._id));
        const fresh = fetched.filter((r) => !listed.has(r._id));
        // A full batch of what is listed already says nothing new: asking again at every attempt's end would
        // scan the pending deliveries each time.
        this.lastFetchFull = fetched.length === READY_BATCH && fresh.length > 0;
        this.ready.push(...fresh.slice(0, MAX_READY - this.ready.length));
      })
      .catch((err) => {
        this.readyStale = true;
        this.logger.warn({ err }, 'looking for due webhook deliveries failed; will retry');
      })
      .finally(() => {
        this.queryNotBefore = Date.now() + 4 * (Date.now() - started);
        this.querying = false;
        this.nudge(false);
      });
  }

  /**
   * Slots are free and the list has nothing for them: is a query worth it?
   * Yes when new work was signalled, when the last query was cut at its
   * limit, or when an endpoint it left out (busy then) has a free slot now.
   * Otherwise everything due is already listed, and polling every attempt's
   * end would cost a scan per delivery.
   */
  private mayFindMore(): boolean {
    return this.readyStale || this.lastFetchFull || this.skippedAtFetch.some((id) => !this.isBusy(id));
  }

  private isBusy(endpointId: string): boolean {
    return (this.perEndpoint.get(endpointId) ?? 0) >= this.options.maxInFlightPerEndpoint;
  }

  private busyEndpoints(): string[] {
    return [...this.perEndpoint.keys()].filter((id) => this.isBusy(id));
  }

  /**
   * Starts what the slots allow: first the deliveries leased at creation
   * (renewing the leases of those that waited long), then from the ready
   * list, claimed in one batch; keeps the rest for the next free slot.
   */
  private async startReady(): Promise<void> {
    const planned = new Map<string, number>();
    const inFlightFor = (endpointId: string) => (this.perEndpoint.get(endpointId) ?? 0) + (planned.get(endpointId) ?? 0);
    let starting = 0;
    const hasSlot = (endpointId: string) =>
      this.inFlight.size + starting < this.options.maxInFlight && inFlightFor(endpointId) < this.options.maxInFlightPerEndpoint;
    const plan = (endpointId: string) => {
      starting += 1;
      planned.set(endpointId, (planned.get(endpointId) ?? 0) + 1);
    };

    const leased: ClaimedDelivery[] = [];
    for (const lists of [this.sendingFirst, this.leased]) {
      for (const [endpointId, waiting] of lists) {
        while (waiting.length > 0 && hasSlot(endpointId)) {
          leased.push(waiting.shift()!);
          plan(endpointId);
        }
        if (waiting.length === 0) lists.delete(endpointId);
      }
    }
    this.leasedCount -= leased.length;

    const take: ReadyDelivery[] = [];
    const waiting: ReadyDelivery[] = [];
    for (const candidate of this.ready) {
      if (!hasSlot(candidate.endpointId)) {
        waiting.push(candidate);
        continue;
      }
      take.push(candidate);
      plan(candidate.endpointId);
    }
    this.ready = waiting;
    if (this.stopped) {
      await this.queue.releaseAll(leased);
      return;
    }
    const now = new Date();
    const fresh = leased.filter((c) => c.delivery.leaseUntil.getTime() - now.getTime() >= this.options.timeoutMs + RENEW_MARGIN_MS);
    const freshOnes = new Set(fresh);
    const stale = leased.filter((c) => !freshOnes.has(c));
    // Those leased recently go at once; the others wait for their renewal or claim.
    for (const claim of fresh) this.launch(claim);
    if (stale.length === 0 && take.length === 0) return;
    const [renewed, claimed] = await Promise.all([this.renew(stale, now), take.length ? this.queue.claim(take.map((c) => c._id), now, this.leaseMs) : []]);
    // Guarded in the database: stale entries (sent by another replica, deleted) are simply not won.
    for (const claim of [...renewed, ...claimed]) {
      if (this.stopped) await this.queue.release(claim);
      else this.launch(claim);
    }
  }

  /**
   * Leases of deliveries that waited long for a slot, extended, together
   * with those of the deliveries next in line (RENEW_AHEAD_PER_ENDPOINT)
   * that will need it within RENEW_AHEAD_MS: during a backlog the attempts
   * then wait for a renewal once per pass, not once each. Each delivery is
   * renewed by its `_id`: renewing a whole lease touched deliveries far
   * back in line, which needed renewing again before their turn. Those of
   * `claims` still held are returned; waiting deliveries whose lease was
   * lost meanwhile (another dispatcher took them) are dropped.
   */
  private async renew(claims: ClaimedDelivery[], now: Date): Promise<ClaimedDelivery[]> {
    if (claims.length === 0) return [];
    const renewing = new Set(claims);
    const soon = now.getTime() + this.options.timeoutMs + RENEW_MARGIN_MS + RENEW_AHEAD_MS;
    for (const waiting of [...this.sendingFirst.values(), ...this.leased.values()]) {
      for (const c of waiting.slice(0, RENEW_AHEAD_PER_ENDPOINT)) {
        if (renewing.size >= MAX_RENEWED) break;
        if (c.delivery.leaseUntil.getTime() < soon) renewing.add(c);
      }
    }
    const until = new Date(now.getTime() + this.leaseMs);
    const held = await this.queue.renewLeases([...renewing], until);
    const renewedOrLost = (c: ClaimedDelivery) => {
      if (!renewing.has(c)) return true;
      if (!held.has(c.delivery._id)) return false;
      c.delivery.leaseUntil = until;
      return true;
    };
    for (const lists of [this.sendingFirst, this.leased]) {
      for (const [endpointId, waiting] of lists) {
        const kept = waiting.filter(renewedOrLost);
        this.leasedCount -= waiting.length - kept.length;
        if (kept.length > 0) lists.set(endpointId, kept);
        else lists.delete(endpointId);
      }
    }
    return claims.filter(renewedOrLost);
  }

  private launch(claim: ClaimedDelivery): void {
    const { _id: deliveryId, endpointId } = claim.delivery;
    const stop = new AbortController();
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
    // The endpoint's slot is held for the HTTP request only; the attempt stays in flight until its outcome is stored.
    const entry: InFlight = { endpointId, startedAt: Date.now(), requesting: true, stop, done: Promise.resolve() };
    const freeSlot = () => {
      if (!entry.requesting) return;
      entry.requesting = false;
      const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
      if (left > 0) this.perEndpoint.set(endpointId, left);
      else this.perEndpoint.delete(endpointId);
      // A first attempt's outcome waits for its fan-out's insert (up to the window), which bounds those:
      // it no longer takes one of the WEBHOOK_MAX_IN_FLIGHT places.
      if (claim.insert && this.inFlight.get(deliveryId) === entry) {
        this.inFlight.delete(deliveryId);
        this.recording.add(entry.done);
      }
      // A slot is free: the list usually has the next one.
      this.nudge(false);
    };
    // The attempt continues the trace of the event it delivers (stored with the delivery).
    const traced = () =>
      inSpan('webhook.deliver', { kind: SpanKind.CLIENT, parent: claim.delivery.traceparent, attributes: { 'webhook.delivery_id': deliveryId, 'webhook.event': claim.delivery.event } }, () =>
        this.attempt(claim, stop.signal, freeSlot),
      );
    entry.done = traced()
      .catch((err) => this.logger.error({ err, deliveryId }, 'webhook attempt could not be recorded; its lease will expire and it is retried'))
      .finally(() => {
        if (this.inFlight.get(deliveryId) === entry) this.inFlight.delete(deliveryId);
        this.recording.delete(entry.done);
        freeSlot();
        this.nudge(false);
      });
    this.inFlight.set(deliveryId, entry);
  }

  private async attempt(claim: ClaimedDelivery, stopping: AbortSignal, freeSlot: () => void): Promise<void> {
    const { delivery } = claim;
    const endpoint = await this.endpoints.find(delivery.appId, delivery.endpointId);
    if (!endpoint) {
      await this.queue.discard(claim);
      return;
    }
    // Test events go out even to a disabled endpoint: that is how one checks a fixed receiver.
    const isTest = delivery.event === 'WEBHOOK_TEST';
    if (!endpoint.enabled && !isTest) {
      await this.queue.failWithoutAttempt(claim, 'ENDPOINT_DISABLED: the endpoint was disabled before this attempt');
      webhookDeliveries.inc({ outcome: 'failed' });
      return;
    }
    let secrets: string[];
    try {
      secrets = this.endpoints.secrets.active(endpoint);
    } catch (err) {
      // Our keyring's fault (a master key removed too early), not the receiver's: no attempt is
      // counted, and the delivery is tried again when its lease runs out, until SECRETS_KEYS is fixed.
      this.logger.error(
        { err, appId: delivery.appId, webhookId: endpoint._id, deliveryId: delivery._id },
        'webhook secret cannot be opened with SECRETS_KEYS; the delivery waits and is retried',
      );
      return;
    }
    if (!this.endpoints.secrets.isCurrent(endpoint)) {
      // Secrets under an old master key (or plain, from before encryption at rest) move now, so old keys can be retired.
      await this.endpoints.secrets
        .moveToCurrentKey(endpoint)
        .catch((err) => this.logger.warn({ err, appId: delivery.appId, webhookId: endpoint._id }, 'moving webhook secrets to the current key failed'));
      this.endpoints.forget(endpoint);
    }
    const result = await postWebhook({
      url: endpoint.url,
      body: delivery.payload,
      // Signed afresh per attempt: the timestamp is the attempt's, the id stays the message's.
      headers: { ...signedHeaders(secrets, delivery.messageId, delivery.payload) },
      timeoutMs: this.options.timeoutMs,
      allowPrivateTargets: this.options.allowPrivateTargets,
      resolve: this.options.resolve,
      signal: stopping,
    });
    freeSlot();
    const succeeded = result.responseStatus !== null && result.responseStatus >= 200 && result.responseStatus < 300;
    if (!succeeded && stopping.aborted) {
      // Cut by the stop, not the receiver's fault: not an attempt.
      await this.queue.release(claim);
      return;
    }
    webhookAttempts.inc({ result: succeeded ? 'success' : result.responseStatus === null ? 'no_response' : 'http_error' });
    webhookAttemptDuration.observe(result.durationMs / 1000);
    if (succeeded) {
      const recorded = await this.queue.recordAttempt(claim, result, { succeeded: true });
      if (recorded) webhookDeliveries.inc({ outcome: 'succeeded' });
      if (recorded && !isTest && endpoint.failingSince !== null) {
        await this.health.succeeded(endpoint);
        this.endpoints.forget(endpoint);
      }
      return;
    }
    const delay = delivery.autoRetry ? retryDelayMs(this.options.schedule, delivery.retryIndex) : null;
    const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay);
    const recorded = await this.queue.recordAttempt(claim, result, { succeeded: false, nextAttemptAt });
    if (recorded && nextAttemptAt === null) webhookDeliveries.inc({ outcome: 'failed' });
    if (recorded && !isTest) {
      await this.health.failed(endpoint, new Date());
      this.endpoints.forget(endpoint);
    }
  }
}
