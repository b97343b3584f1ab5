import type { Logger } from '@ris/logging';
import { LEASES_ONLY, takeOverAbandoned, type HolderLiveness } from '@ris/service-runtime';
import type { EventClaimDoc } from './event-claim.model';
import type { EventClaimRepository } from './event-claim.repository';

/**
 * Who is processing which event. A claim is inserted before any effect of
 * an event and deleted once its event document is stored; its _id is the
 * event id, so for a keyed event (id derived from the idempotencyKey) only
 * one request at a time can hold it. A claim outlives its lease only when
 * its holder died: then a retry of the same key, or the recovery pass, takes
 * it over and finishes the event from the input stored in it. A holder
 * that died is known within seconds (ProcessLiveness), so its claims are
 * taken over then, not when their lease runs out.
 */
export class EventClaims {
  constructor(
    private readonly claims: EventClaimRepository,
    readonly leaseMs = 30_000,
    readonly liveness: HolderLiveness = LEASES_ONLY,
  ) {}

  /** Nobody works on the claim any more: its lease ran out, or its holder died. */
  async isAbandoned(claim: EventClaimDoc, now = Date.now()): Promise<boolean> {
    if (claim.lockedUntil.getTime() <= now) return true;
    return claim.holder ? !(await this.liveness.isAlive(claim.holder)) : false;
  }

  /** Claims each event (one insert of them all, under their unique ids); false where someone else holds it. */
  claim(docs: EventClaimDoc[]): Promise<boolean[]> {
    return this.claims.claim(docs);
  }

  find(appId: string, eventId: string): Promise<EventClaimDoc | null> {
    return this.claims.findById(appId, eventId);
  }

  /** Takes over a claim found abandoned (see isAbandoned); null if someone else took it first (conditional on the lease read). */
  takeOver(claim: EventClaimDoc): Promise<EventClaimDoc | null> {
    return this.claims.takeOver(claim, new Date(Date.now() + this.leaseMs), this.liveness.instanceId);
  }

  /** Ends the leases now: the holder failed and will not finish them. */
  async expire(appId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.claims.expire(appId, eventIds);
  }

  async release(appId: string, eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) return;
    await this.claims.release(appId, eventIds);
  }

  /**
   * Takes over the claims nobody works on any more (lease over, or holder
   * dead), oldest first: the recovery pass, which finishes them (resume) in
   * one batch. Every claim is read, not only expired ones: the collection
   * holds only the work in flight. A claim that could not be taken over is
   * logged and left to the next pass.
   */
  async takeOverAbandoned(limit: number, logger: Logger): Promise<EventClaimDoc[]> {
    const claims = await this.claims.oldest(limit);
    const now = Date.now();
    return takeOverAbandoned(logger, 'taking over an abandoned event claim failed; will retry', claims, {
      owed: async (claim) => (await this.isAbandoned(claim, now)) || null,
      takeOver: (claim) => this.takeOver(claim),
      about: (claim) => ({ appId: claim.appId, eventId: claim._id }),
    });
  }
}
