import { createClient, createRouterTransport, type ServiceImpl } from '@connectrpc/connect';
import { IncentiveService, LeaderboardPeriod } from '@ris/contracts';
import { Code, type ConnectError, errorReason, notFound, toItemError } from '@ris/rpc';
import { LeaderboardReads } from './leaderboard-reads';

const board = ['ann', 'bob', 'cat'].map((userId, i) => ({ rank: i + 1, userId, xp: 30 - i * 10, coins: i }));
const missing = (userId: string) => notFound('Leaderboard entry', { userId, period: 'ALL_TIME' });

function readsAgainst(impl: Partial<ServiceImpl<typeof IncentiveService>>) {
  return new LeaderboardReads(createClient(IncentiveService, createRouterTransport((router) => router.service(IncentiveService, impl))));
}

describe('LeaderboardReads', () => {
  it('answers the tops of one board asked together from one read of the largest limit', async () => {
    const asked: Array<[string, number]> = [];
    const reads = readsAgainst({
      async getLeaderboard(req) {
        asked.push([req.appId, req.limit]);
        return { entries: board.slice(0, req.limit), periodKey: 'ALL_TIME' };
      },
    });
    const [one, three, other] = await Promise.all([
      reads.top('app_1', LeaderboardPeriod.ALL_TIME, 1),
      reads.top('app_1', LeaderboardPeriod.ALL_TIME, 3),
      reads.top('app_2', LeaderboardPeriod.ALL_TIME, 2),
    ]);
    expect([one.map((e) => e.userId), three.map((e) => e.userId), other.map((e) => e.userId)]).toEqual([['ann'], ['ann', 'bob', 'cat'], ['ann', 'bob']]);
    expect(asked.sort()).toEqual([
      ['app_1', 3],
      ['app_2', 2],
    ]);
  });

  it("answers the entries of one board asked together from one call, each user's own", async () => {
    const asked: string[][] = [];
    const reads = readsAgainst({
      async getLeaderboardEntries(req) {
        asked.push(req.userIds);
        return {
          outcomes: req.userIds.map((userId) => {
            const entry = board.find((e) => e.userId === userId);
            return entry ? { outcome: { case: 'entry' as const, value: entry } } : { outcome: { case: 'error' as const, value: toItemError(missing(userId)) } };
          }),
        };
      },
    });
    const results = await Promise.allSettled(['cat', 'zed', 'ann'].map((userId) => reads.entry('app_1', LeaderboardPeriod.ALL_TIME, userId)));
    expect(asked).toEqual([['cat', 'zed', 'ann']]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { rank: 3, userId: 'cat' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { rank: 1, userId: 'ann' } });
    const refused = (results[1] as PromiseRejectedResult).reason as ConnectError;
    expect([refused.code, refused.rawMessage, errorReason(refused)]).toEqual([
      Code.NotFound,
      'Leaderboard entry not found',
      { reason: 'NOT_FOUND', details: { userId: 'zed', period: 'ALL_TIME' } },
    ]);
  });

  it('falls back to single entry reads when the service does not know GetLeaderboardEntries yet', async () => {
    const reads = readsAgainst({
      async getLeaderboardEntry(req) {
        const entry = board.find((e) => e.userId === req.userId);
        if (!entry) throw missing(req.userId);
        return { entry };
      },
    });
    const results = await Promise.allSettled(['bob', 'zed'].map((userId) => reads.entry('app_1', LeaderboardPeriod.ALL_TIME, userId)));
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { userId: 'bob' } });
    expect(((results[1] as PromiseRejectedResult).reason as ConnectError).code).toBe(Code.NotFound);
  });
});
