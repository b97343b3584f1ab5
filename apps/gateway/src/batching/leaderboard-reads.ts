import type { Client } from '@connectrpc/connect';
import type { IncentiveService, LeaderboardEntry, LeaderboardEntryOutcome, LeaderboardPeriod } from '@ris/contracts';
import { KeyedGroupCommit } from '@ris/mongo';
import { Code, ConnectError, fromItemError, toItemError } from '@ris/rpc';
import { batched, busy, notDeployedYet, openedBy, type Batched } from './batched-call';

/** Calls of one board allowed in flight at once; what arrives meanwhile waits for the next. */
const CALLS_PER_BOARD = 2;
/** Most users one entry call asks for. */
const ENTRIES_PER_CALL = 100;
/** Most reads of one board waiting for a call; more are answered 503 at once. */
const MAX_WAITING_PER_BOARD = 2_000;

const boardKey = (appId: string, period: LeaderboardPeriod) => `${period}:${appId}`;

function board(key: string): { appId: string; period: LeaderboardPeriod } {
  const sep = key.indexOf(':');
  return { period: Number(key.slice(0, sep)) as LeaderboardPeriod, appId: key.slice(sep + 1) };
}

/**
 * Leaderboard reads of one board that arrive together share one call to
 * the incentive service, and so one Redis read there: the tops asked for
 * (whatever their limits) are answered from one read of the largest, the
 * entries from one read of all their users. A popular board is read by
 * many clients at once, and per request the hop (HTTP/2, Connect,
 * protobuf, a process each way) costs more than the read itself.
 *
 * Coalescing, not caching: a request only joins a call that has not been
 * sent yet (at most CALLS_PER_BOARD are in flight per board; the rest wait
 * for the next), so every answer comes from a read made after its request
 * arrived and a read still sees every write that was acknowledged before.
 * Alone, a request waits one turn of the event loop.
 */
export class LeaderboardReads {
  private readonly tops: KeyedGroupCommit<Batched<number>, LeaderboardEntry[]>;
  private readonly entries: KeyedGroupCommit<Batched<string>, LeaderboardEntryOutcome['outcome']>;

  constructor(client: Client<typeof IncentiveService>) {
    const limits = { concurrency: CALLS_PER_BOARD, maxQueued: MAX_WAITING_PER_BOARD, overloaded: busy };
    this.tops = new KeyedGroupCommit(async (key, batch) => {
      const res = await client.getLeaderboard({ ...board(key), limit: Math.max(...batch.map((b) => b.item)) }, openedBy(batch));
      return batch.map((b) => res.entries.slice(0, b.item));
    }, limits);
    this.entries = new KeyedGroupCommit(
      async (key, batch) => {
        const userIds = batch.map((b) => b.item);
        try {
          const { outcomes } = await client.getLeaderboardEntries({ ...board(key), userIds }, openedBy(batch));
          if (outcomes.length !== userIds.length) throw new ConnectError(`${outcomes.length} outcomes for ${userIds.length} users`, Code.Internal);
          return outcomes.map((o) => o.outcome);
        } catch (err) {
          if (!notDeployedYet(err)) throw err;
          const single = await Promise.allSettled(batch.map((b) => client.getLeaderboardEntry({ ...board(key), userId: b.item }, openedBy([b]))));
          return single.map((r) =>
            r.status === 'fulfilled' && r.value.entry
              ? { case: 'entry' as const, value: r.value.entry }
              : { case: 'error' as const, value: toItemError(r.status === 'rejected' ? r.reason : undefined) },
          );
        }
      },
      { ...limits, maxBatch: ENTRIES_PER_CALL },
    );
  }

  /** The top `limit` (1..100) of the board, by rank. */
  top(appId: string, period: LeaderboardPeriod, limit: number): Promise<LeaderboardEntry[]> {
    return this.tops.add(boardKey(appId, period), batched(limit));
  }

  /** One user's entry; NotFound, as the service says it, when the user is not on the board. */
  async entry(appId: string, period: LeaderboardPeriod, userId: string): Promise<LeaderboardEntry> {
    const outcome = await this.entries.add(boardKey(appId, period), batched(userId));
    if (outcome.case === 'entry') return outcome.value;
    if (outcome.case === 'error') throw fromItemError(outcome.value);
    throw new ConnectError('the entry has no outcome', Code.Internal);
  }
}
