import * as http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { GetLeaderboardRequestSchema, IncentiveService } from '@ris/contracts';
import { createLogger } from '@ris/logging';
import { rpcService, startRpcServer, type RpcServer } from './rpc-server';

// The answer to a large response is compressed only when the service allows it.
describe('rpcService compressResponses', () => {
  const logger = createLogger('rpc-test', 'silent');
  const entries = Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, userId: `user-${i}`, xp: 1000 - i, coins: i }));

  async function responseEncoding(compressResponses: boolean | undefined): Promise<string | undefined> {
    const server: RpcServer = await startRpcServer({
      host: '127.0.0.1',
      port: 0,
      logger,
      readiness: [],
      services: [rpcService(IncentiveService, { getLeaderboard: async () => ({ entries }) }, { compressResponses })],
    });
    const session = http2.connect(`http://127.0.0.1:${server.port}`);
    try {
      const body = toBinary(GetLeaderboardRequestSchema, create(GetLeaderboardRequestSchema, { appId: 'a', limit: 100 }));
      const frame = Buffer.alloc(5 + body.length);
      frame.writeUInt32BE(body.length, 1);
      frame.set(body, 5);
      const stream = session.request({
        ':method': 'POST',
        ':path': '/incentive.v1.IncentiveService/GetLeaderboard',
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-accept-encoding': 'gzip',
      });
      const headers = await new Promise<http2.IncomingHttpHeaders>((resolve) => stream.once('response', resolve));
      stream.resume();
      stream.end(frame);
      await new Promise((resolve) => stream.once('close', resolve));
      return headers['grpc-encoding'] as string | undefined;
    } finally {
      session.close();
      await server.close();
    }
  }

  it('gzips large answers by default and not when turned off', async () => {
    expect(await responseEncoding(undefined)).toBe('gzip');
    expect(await responseEncoding(false)).toBeUndefined();
  });
});
