import * as http2 from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { GetLeaderboardRequestSchema, IncentiveService } from '@ris/contracts';
import { createLogger } from '@ris/logging';
import { rpcService, startRpcServer, type RpcServer } from './rpc-server';

// A large answer is compressed only when the service allows it.
describe('rpcService compressResponses', () => {
  const logger = createLogger('rpc-test', 'silent');
  const entries = Array.from({ length: 100 }, (_, i) => ({ rank: i + 1, userId: `user-${i}`, xp: 1000 - i, coins: i }));

  /** The first message's "compressed" flag (the first byte of a gRPC frame). */
  async function answerCompressed(compressResponses: boolean | undefined): Promise<boolean> {
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
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const closed = new Promise((resolve) => stream.once('close', resolve));
      stream.end(frame);
      await closed;
      const answer = Buffer.concat(chunks);
      expect(answer.length).toBeGreaterThan(5);
      return answer[0] === 1;
    } finally {
      session.close();
      await server.close();
    }
  }

  it('gzips large answers by default and not when turned off', async () => {
    expect(await answerCompressed(undefined)).toBe(true);
    expect(await answerCompressed(false)).toBe(false);
  });
});
