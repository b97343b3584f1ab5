import type { Client } from '@connectrpc/connect';
import { type IncentiveService, LeaderboardPeriod, enumName, type LeaderboardEntry } from '@ris/contracts';
import { KeyedGroupCommit } from '@ris/mongo';
import { notFound } from '@ris/rpc';

/** Calls of one board allowed in flight at once; what arrives meanwhile waits for the next. */
const CALLS_PER_BOARD = 2;
/** Most users one entry call asks for. */
const ENTRIES_PER_CALL = 100;

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
 *
 * The service logs a batched call under the request id of the request
 * that opened the batch.
 */
export class LeaderboardReads {
  private readonly tops: KeyedGroupCommit<number, LeaderboardEntry[]>;
  private readonly entries: KeyedGroupCommit<string, LeaderboardEntry | undefined>;

  constructor(client: Client<typeof IncentiveService>) {
    this.tops = new KeyedGroupCommit(
      async (key, limits) => {
        const res = await client.getLeaderboard({ ...board(key), limit: Math.max(...limits) });
        return limits.map((limit) => res.entries.slice(0, limit));
      },
      { concurrency: CALLS_PER_BOARD },
    );
    this.entries = new KeyedGroupCommit(
      async (key, userIds) => {
        const res = await client.getLeaderboardEntries({ ...board(key), userIds });
        const byUser = new Map(res.entries.map((entry) => [entry.userId, entry]));
        return userIds.map((userId) => byUser.get(userId));
      },
      { concurrency: CALLS_PER_BOARD, maxBatch: ENTRIES_PER_CALL },
    );
  }

  /** The top `limit` (1..100) of the board, by rank. */
  top(appId: string, period: LeaderboardPeriod, limit: number): Promise<LeaderboardEntry[]> {
    return this.tops.add(boardKey(appId, period), limit);
  }

  /** One user's entry; NotFound (as the service says it) when the user is not on the board. */
  async entry(appId: string, period: LeaderboardPeriod, userId: string): Promise<LeaderboardEntry> {
    const entry = await this.entries.add(boardKey(appId, period), userId);
    if (!entry) throw notFound('Leaderboard entry', { userId, period: enumName(LeaderboardPeriod, period) ?? 'ALL_TIME' });
    return entry;
  }
}
