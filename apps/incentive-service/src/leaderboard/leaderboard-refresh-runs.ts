import type { Logger } from '@ris/logging';
import { idFromOperation, type Page, type PageQuery } from '@ris/mongo';
import { conflict, isDomainError, notFound } from '@ris/domain-errors';
import type { Leaderboard } from './leaderboard';
import type { RefreshRunDoc } from './refresh-run.model';
import type { RefreshRunRepository } from './refresh-run.repository';

/** A RUNNING run whose heartbeat is older than this has lost its process: it reads FAILED. */
export const STALE_AFTER_MS = 30_000;
const HEARTBEAT_MS = 5_000;
const MAX_START_ATTEMPTS = 5;

/**
 * A run as callers see it: a RUNNING run whose heartbeat stopped reads
 * FAILED, finished when it last beat (whether or not that was written yet).
 */
export function runView(run: RefreshRunDoc, now = new Date()): RefreshRunDoc {
  if (run.status !== 'RUNNING' || now.getTime() - run.heartbeatAt.getTime() <= STALE_AFTER_MS) return run;
  return {
    ...run,
    status: 'FAILED',
    finishedAt: run.heartbeatAt,
    durationMs: run.heartbeatAt.getTime() - run.startedAt.getTime(),
    error: `The refresh stopped: its process gave no sign of life for ${STALE_AFTER_MS / 1000} s.`,
  };
}

/**
 * POST /incentives/leaderboard/refresh-runs: the rebuild of
 * POST /incentives/leaderboard/refresh (Leaderboard.refresh, the same code)
 * in the background, with its progress kept per batch of users in a run
 * record. One run per app at a time, decided by the insert of a RUNNING
 * run under a unique slot; a run whose process died is ended FAILED by the
 * next start that finds it stale.
 */
export class LeaderboardRefreshRuns {
  private readonly working = new Set<Promise<void>>();

  constructor(
    private readonly runs: RefreshRunRepository,
    private readonly leaderboard: Leaderboard,
    private readonly logger: Logger,
  ) {}

  /** Starts a run (started: true), or answers the app's running one, or the run this operation key started before. */
  async start(appId: string, operationKey: string): Promise<{ run: RefreshRunDoc; started: boolean }> {
    const id = idFromOperation('lbr', operationKey);
    for (let attempt = 0; attempt < MAX_START_ATTEMPTS; attempt += 1) {
      const same = operationKey ? await this.runs.findById(appId, id) : null;
      if (same) return { run: runView(same), started: false };
      const now = new Date();
      const run = await this.runs.start(appId, { _id: id, usersDone: 0, usersTotal: 0, startedAt: now, heartbeatAt: now, finishedAt: null, durationMs: null, error: null });
      if (run) {
        this.track(this.work(appId, run));
        return { run, started: true };
      }
      const running = await this.runs.running(appId);
      if (!running) continue;
      const view = runView(running);
      if (view.status === 'RUNNING') return { run: view, started: false };
      // Its process died: end it as it reads, then take the slot.
      await this.runs.finish(appId, running._id, { status: 'FAILED', error: view.error, finishedAt: view.finishedAt, durationMs: view.durationMs }, running.heartbeatAt);
    }
    throw conflict('CONFLICT', 'Leaderboard refreshes are starting at the same moment; retry.');
  }

  async get(appId: string, runId: string): Promise<RefreshRunDoc> {
    const run = await this.runs.findById(appId, runId);
    if (!run) throw notFound('Refresh run', { runId });
    return runView(run);
  }

  async list(appId: string, page: PageQuery): Promise<Page<RefreshRunDoc>> {
    const found = await this.runs.list(appId, page);
    const now = new Date();
    return { ...found, items: found.items.map((run) => runView(run, now)) };
  }

  /** Waits for the runs of this process (graceful stop); a run cut short reads FAILED once its heartbeat is stale. */
  async stop(): Promise<void> {
    await Promise.allSettled([...this.working]);
  }

  private track(work: Promise<void>): void {
    this.working.add(work);
    void work.finally(() => this.working.delete(work));
  }

  private async work(appId: string, run: RefreshRunDoc): Promise<void> {
    const note = (err: unknown) => this.logger.warn({ err, appId, runId: run._id }, 'could not record a leaderboard refresh run’s progress');
    const beat = setInterval(() => void this.runs.progress(appId, run._id, {}).catch(note), HEARTBEAT_MS);
    beat.unref();
    const finish = (outcome: Omit<Parameters<RefreshRunRepository['finish']>[2], 'finishedAt' | 'durationMs'>) => {
      const finishedAt = new Date();
      return this.runs.finish(appId, run._id, { ...outcome, finishedAt, durationMs: finishedAt.getTime() - run.startedAt.getTime() }).catch(note);
    };
    try {
      const total = await this.leaderboard.userCount(appId);
      await this.runs.progress(appId, run._id, { usersTotal: total }).catch(note);
      const users = await this.leaderboard.refresh(appId, (done) =>
        this.runs.progress(appId, run._id, { usersDone: done, usersTotal: Math.max(total, done) }).catch(note),
      );
      await finish({ status: 'SUCCEEDED', error: null, usersDone: users, usersTotal: users });
    } catch (err) {
      this.logger.warn({ err, appId, runId: run._id }, 'leaderboard refresh run failed');
      await finish({ status: 'FAILED', error: isDomainError(err) ? err.message : 'The leaderboard could not be rebuilt.' });
    } finally {
      clearInterval(beat);
    }
  }
}
