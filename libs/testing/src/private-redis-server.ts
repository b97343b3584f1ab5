import { restartableServer } from './restartable-server';
import { freeTcpPort } from './test-infra';

/**
 * A private redis-server (no persistence) that a test may stop and start
 * again, to prove what happens while Redis is away, without disturbing
 * other tests. A restart comes back empty, like a flushed Redis.
 */
export async function privateRedisServer() {
  const port = await freeTcpPort();
  const server = restartableServer('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], port);
  return { url: `redis://127.0.0.1:${port}`, start: server.start, stop: server.stop };
}
