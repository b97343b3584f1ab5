import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freeTcpPort } from './test-infra';

/**
 * A private redis-server (no persistence) that a test may stop and start
 * again, to prove what happens while Redis is away, without disturbing
 * other tests. A restart comes back empty, like a flushed Redis.
 */
export async function privateRedisServer() {
  const port = await freeTcpPort();
  let child: ChildProcess | undefined;
  const waitPort = async (open: boolean) => {
    for (let i = 0; i < 100; i += 1) {
      const isOpen = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (isOpen === open) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`redis-server on ${port} did not ${open ? 'start' : 'stop'}`);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      await waitPort(true);
    },
    async stop() {
      if (!child) return;
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      child = undefined;
      await waitPort(false);
    },
  };
}
