import type { Client } from '@connectrpc/connect';
import type { IncentiveService, LeaderboardEntry, LeaderboardPeriod } from '@ris/contracts';
import { KeyedGroupCommit } from '@ris/mongo';
import { Code, ConnectError } from '@ris/rpc';
import { batched, busy, itemOutcomes, itemValue, openedBy, type Batched, type ItemOutcome } from './batched-call';

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
  private readonly entries: KeyedGroupCommit<Batched<string>, ItemOutcome<'entry', LeaderboardEntry>>;

  constructor(client: Client<typeof IncentiveService>) {
    const limits = { concurrency: CALLS_PER_BOARD, maxQueued: MAX_WAITING_PER_BOARD, overloaded: busy };
    this.tops = new KeyedGroupCommit(async (key, batch) => {
      const res = await client.getLeaderboard({ ...board(key), limit: Math.max(...batch.map((b) => b.item)) }, openedBy(batch));
      return batch.map((b) => res.entries.slice(0, b.item));
    }, limits);
    this.entries = new KeyedGroupCommit(
      (key, batch) =>
        itemOutcomes(
          'entry',
          batch.length,
          async () => (await client.getLeaderboardEntries({ ...board(key), userIds: batch.map((b) => b.item) }, openedBy(batch))).outcomes.map((o) => o.outcome),
          async (i) => {
            const { entry } = await client.getLeaderboardEntry({ ...board(key), userId: batch[i].item }, openedBy([batch[i]]));
            if (!entry) throw new ConnectError('the service sent no entry', Code.Internal);
            return entry;
          },
        ),
      { ...limits, maxBatch: ENTRIES_PER_CALL },
    );
  }

  /** The top `limit` (1..100) of the board, by rank. */
  top(appId: string, period: LeaderboardPeriod, limit: number): Promise<LeaderboardEntry[]> {
    return this.tops.add(boardKey(appId, period), batched(limit));
  }

  /** One user's entry; NotFound, as the service says it, when the user is not on the board. */
  async entry(appId: string, period: LeaderboardPeriod, userId: string): Promise<LeaderboardEntry> {
    return itemValue('entry', await this.entries.add(boardKey(appId, period), batched(userId)));
  }
}
