import { Code, ConnectError } from '@connectrpc/connect';
import { IncentiveService } from '@ris/contracts';
import { createLogger, currentRequestId, runWithRequestContext } from '@ris/logging';
import { createServiceClient } from './rpc-client';
import { errorReason, rpcError } from './rpc-error';
import { rpcService, startRpcServer, type RpcServer } from './rpc-server';

// What every service-to-service call relies on, over a real HTTP/2
// connection with the protocol createServiceClient speaks.
describe('createServiceClient', () => {
  const logger = createLogger('rpc-test', 'silent');
  let server: RpcServer;
  const seenRequestIds: (string | undefined)[] = [];
  const entries = Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, userId: `user-${i}`, xp: 1000 - i, coins: i }));

  beforeAll(async () => {
    server = await startRpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      readiness: [],
      services: [
        rpcService(IncentiveService, {
          getLeaderboard: async (req) => {
            seenRequestIds.push(currentRequestId());
            if (req.appId === 'missing') throw rpcError(Code.NotFound, 'NOT_FOUND', 'Board not found', { appId: req.appId });
            if (req.appId === 'crash') throw new Error('a bug with internals in its message');
            return { entries: entries.slice(0, req.limit) };
          },
        }),
      ],
    });
  });

  afterAll(() => server.close());

  const client = () => createServiceClient(IncentiveService, `http://127.0.0.1:${server.port}`);

  it('returns the answer, all of it', async () => {
    const res = await client().getLeaderboard({ appId: 'a', limit: 100 });
    expect(res.entries).toHaveLength(100);
    expect(res.entries[99]).toMatchObject({ rank: 100, userId: 'user-99', xp: 901, coins: 99 });
  });

  it('carries the code, public reason and details of an error', async () => {
    const err = await client()
      .getLeaderboard({ appId: 'missing', limit: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.NotFound);
    expect((err as ConnectError).rawMessage).toBe('Board not found');
    expect(errorReason(err as ConnectError)).toEqual({ reason: 'NOT_FOUND', details: { appId: 'missing' } });
  });

  it('turns an unexpected failure into a bare Internal error', async () => {
    const err = (await client()
      .getLeaderboard({ appId: 'crash', limit: 1 })
      .catch((e: unknown) => e)) as ConnectError;
    expect(err.code).toBe(Code.Internal);
    expect(err.message).not.toContain('internals');
    expect(errorReason(err)).toEqual({});
  });

  it("sends the caller's request id along", async () => {
    seenRequestIds.length = 0;
    await runWithRequestContext({ requestId: 'req-from-the-gateway' }, () => client().getLeaderboard({ appId: 'a', limit: 1 }));
    expect(seenRequestIds).toEqual(['req-from-the-gateway']);
  });
});
