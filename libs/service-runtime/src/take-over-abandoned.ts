import type { Logger } from '@ris/logging';
import { recoverIsolated } from './periodic-recovery';

/**
 * One kind of work held under a lease by one process at a time (a
 * redemption, an event claim), as a recovery pass sees it: what is owed on
 * a candidate nobody works on any more, and how to take it over.
 */
export interface LeaseTakeover<C, D, T> {
  /**
   * What is owed on the candidate now that its lease ran out or its holder
   * died (HolderLiveness); null while it is held, or when nothing is owed.
   */
  owed(candidate: C): Promise<D | null>;
  /** Takes it over, conditional on the lease read: null when someone else (another replica, the request itself) got there first. */
  takeOver(candidate: C): Promise<T | null>;
  /** Does what is owed under this process's lease. Without it the caller works on what takeOverAbandoned returns (in one batch, say). */
  perform?(taken: T, owed: D): Promise<void>;
  /** Ends the lease after perform failed, so the next pass retries at once instead of after a full lease; without it the lease runs out. */
  giveBack?(taken: T): Promise<void>;
  /** Names the candidate in the warning its failure logs. */
  about(candidate: C, owed: D): Record<string, string>;
}

/**
 * The loop a recovery pass runs over lease-held work: for each candidate,
 * in order, is it abandoned (and what is owed), take it over, perform,
 * give the lease back on failure. Each candidate is isolated: its failure
 * is logged (`message`, with `about`) and the pass goes on with the next.
 * Deciding is not isolated: it reads liveness from the store, and when that
 * read fails every candidate would fail alike, so the pass fails (and the
 * periodic task runs the next one as usual).
 *
 * Returns what was taken over and performed (or only taken over, without
 * perform), in the candidates' order.
 */
export async function takeOverAbandoned<C, D, T>(
  logger: Logger,
  message: string,
  candidates: Iterable<C>,
  lease: LeaseTakeover<C, D, T>,
): Promise<T[]> {
  const taken: T[] = [];
  for (const candidate of candidates) {
    const owed = await lease.owed(candidate);
    if (owed === null) continue;
    await recoverIsolated(logger, lease.about(candidate, owed), message, async () => {
      const mine = await lease.takeOver(candidate);
      if (!mine) return;
      try {
        await lease.perform?.(mine, owed);
      } catch (err) {
        await lease.giveBack?.(mine);
        throw err;
      }
      taken.push(mine);
    });
  }
  return taken;
}
