import { randomUUID } from 'node:crypto';
import { GroupCommit } from '@ris/mongo';
import { attemptLogEntry, finishedAtOf, stateAfterAttempt, type AttemptNext } from '../deliveries/attempt-outcome';
import type { AttemptResult } from '../deliveries/delivery-attempt.model';
import type { DeliveryAttemptRepository } from '../deliveries/delivery-attempt.repository';
import type { DeliveryDoc } from '../deliveries/delivery.model';
import type { ClaimedDelivery, DeliveryRepository, DeliveryState } from '../deliveries/delivery.repository';

export type { ClaimedDelivery };

/** What a finished attempt asks the queue to record. */
interface Outcome {
  claim: ClaimedDelivery;
  result: AttemptResult;
  next: AttemptNext;
}

/** Most outcomes one flush records: one insert of their log entries, an update per lease for the successes. */
const RECORD_BATCH = 500;

/**
 * The delivery queue in MongoDB, as the dispatcher works it. State lives
 * only there, so a restarted (or crashed) service loses nothing: a claim is
 * a lease that expires, and outcomes are written only by the lease holder.
 *
 * The claim scan is the one query that is deliberately not scoped by app:
 * the dispatcher serves every tenant. Everything after the claim carries
 * the delivery's appId.
 */
export class DeliveryQueue {
  /**
   * Outcomes are recorded in groups (group commit): the attempts that end
   * together share one insert of their log entries and, for the successes
   * of one lease, one update; the dispatcher's attempts wait for it, so
   * nothing is acknowledged before it is stored.
   */
  private readonly outcomes = new GroupCommit<Outcome, boolean>((batch) => this.recordBatch(batch), { maxBatch: RECORD_BATCH, concurrency: 2 });

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly attempts: DeliveryAttemptRepository,
  ) {}

  /**
   * Ids of due deliveries nobody holds, skipping endpoints that are busy
   * enough (DeliveryRepository.due); with `sweep`, also those whose lease
   * ran out (dueAfterLeases: dearer on FerretDB, so asked for seldom).
   */
  due(now: Date, limit: number, skipEndpoints: string[], sweep = false): Promise<Array<Pick<DeliveryDoc, '_id' | 'endpointId'>>> {
    return sweep ? this.deliveries.dueAfterLeases(now, limit, skipEndpoints) : this.deliveries.due(now, limit, skipEndpoints);
  }

  /** Takes the lease on those still due and free, in one batch; the ones won. */
  claim(deliveryIds: string[], now: Date, leaseMs: number): Promise<ClaimedDelivery[]> {
    return this.deliveries.claim(deliveryIds, now, leaseMs);
  }

  /** A fresh lease for deliveries stored already leased (the fan-out's, for the dispatcher to send at once). */
  newLease(now: Date, leaseMs: number): Pick<DeliveryDoc, 'lease' | 'leaseUntil'> & { lease: string } {
    return { lease: randomUUID(), leaseUntil: new Date(now.getTime() + leaseMs) };
  }

  /**
   * Extends the leases of `claims` (each delivery by its `_id`, one round
   * trip per app and lease). The ids still under their lease.
   */
  async renewLeases(claims: ClaimedDelivery[], until: Date): Promise<Set<string>> {
    await storedFirst(claims);
    const held = new Set<string>();
    await Promise.all(
      [...groupBy(claims, (c) => `${c.delivery.appId}\n${c.lease}`).values()].map(async (group) => {
        const { delivery, lease } = group[0];
        for (const id of await this.deliveries.renewLease(delivery.appId, lease, group.map((c) => c.delivery._id), until)) held.add(id);
      }),
    );
    return held;
  }

  /**
   * Records a finished attempt: SUCCEEDED, PENDING again at `nextAttemptAt`,
   * or FAILED when that is null; and adds it to the attempt log. Returns
   * false if the lease was lost (the delivery's state then belongs to whoever
   * holds it now; the attempt, which did happen, is logged all the same).
   * A delivery not stored yet (its first attempt, PendingInsert) is stored
   * with this outcome instead; false if that insert found it stored already.
   */
  async recordAttempt(claim: ClaimedDelivery, result: AttemptResult, next: AttemptNext): Promise<boolean> {
    const { insert, delivery } = claim;
    if (insert) {
      const absorbed = insert.absorb(delivery, stateAfterAttempt(delivery, result, next), result);
      if (absorbed) return absorbed;
      // Its insert has begun: once it is in, the outcome is an update like any other.
      if (!(await insert.stored).has(delivery)) return false;
    }
    return this.outcomes.add({ claim, result, next });
  }

  private async recordBatch(batch: Outcome[]): Promise<boolean[]> {
    // The log entries first, then the outcomes: whoever sees a delivery's new
    // status (GET .../deliveries/{id}) also sees the attempt that decided it.
    await this.attempts.log(batch.map(({ claim: { delivery }, result }) => attemptLogEntry(delivery, result)));
    const recorded = new Map<Outcome, boolean>();
    const successes = batch.filter((o) => o.next.succeeded);
    const groups = groupBy(successes, ({ claim, result }) => `${claim.delivery.appId}\n${claim.lease}\n${result.responseStatus}`);
    // A write that fails counts its deliveries as lost leases (false), never
    // its neighbours': the delivery stays leased, and is sent again once its
    // lease runs out (at least once), as after any lost lease.
    await Promise.allSettled([
      ...[...groups.values()].map(async (group) => {
        const { claim, result } = group[0];
        const startedAt = new Date(Math.min(...group.map((o) => o.result.startedAt.getTime())));
        const finishedAt = new Date(Math.max(...group.map((o) => finishedAtOf(o.result).getTime())));
        // The state of one success, with the group's first start and last end.
        const state: DeliveryState = { ...stateAfterAttempt(claim.delivery, result, { succeeded: true }), completedAt: finishedAt, lastAttemptAt: startedAt };
        const count = await this.deliveries.recordSucceeded(claim.delivery.appId, claim.lease, group.map((o) => o.claim.delivery._id), state);
        // All of them, or (rarely: a stall past the lease) not knowing which: those count as lost, so
        // no success is counted twice; the endpoint's failure streak is cleared by its next success.
        for (const o of group) recorded.set(o, count === group.length);
      }),
      ...batch
        .filter((o) => !o.next.succeeded)
        .map(async (o) => recorded.set(o, await this.deliveries.recordAttempt(o.claim, stateAfterAttempt(o.claim.delivery, o.result, o.next)))),
    ]);
    return batch.map((o) => recorded.get(o) ?? false);
  }

  /** Fails a delivery without an attempt (its endpoint is disabled). */
  async failWithoutAttempt(claim: ClaimedDelivery, error: string): Promise<void> {
    await storedFirst([claim]);
    await this.deliveries.failUnattempted(claim, error, new Date());
  }

  /** Its endpoint was deleted while it waited: nobody can ever see or send it. */
  async discard(claim: ClaimedDelivery): Promise<void> {
    await storedFirst([claim]);
    await this.deliveries.discard(claim);
  }

  /** Gives the lease back untouched (the service is stopping mid-attempt): due again at once. */
  async release(claim: ClaimedDelivery): Promise<void> {
    await storedFirst([claim]);
    await this.deliveries.release(claim);
  }

  /** The same for many (leased at creation, never started): one update per app and lease. */
  async releaseAll(claims: ClaimedDelivery[]): Promise<void> {
    await storedFirst(claims);
    await Promise.all(
      [...groupBy(claims, (c) => `${c.delivery.appId}\n${c.lease}`).values()].map((group) =>
        this.deliveries.releaseAll(group[0].delivery.appId, group[0].lease, group.map((c) => c.delivery._id)),
      ),
    );
  }

  /** Retention: finished deliveries and attempts older than the cut-off. */
  async removeFinishedBefore(cutoff: Date): Promise<void> {
    await this.deliveries.removeFinishedBefore(cutoff);
    await this.attempts.removeStartedBefore(cutoff);
  }
}

/**
 * Writes about deliveries not stored yet (PendingInsert) wait for their
 * insert, started now: a renewal, release or discard needs the document.
 */
async function storedFirst(claims: ClaimedDelivery[]): Promise<void> {
  await Promise.all([...new Set(claims.map((c) => c.insert).filter((insert) => insert !== undefined))].map((insert) => insert.flush()));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
