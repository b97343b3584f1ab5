import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768–60999 by default):
 * a port the OS picks there is free now, but any outgoing connection of the
 * machine may take it before the app that was given it listens, which a
 * busy test run did (EADDRINUSE at start). Each process draws from its own
 * block of 1,000 (by pid), so two test workers seldom draw from one block.
 */
const RANGE_START = 20_000;
const BLOCKS = 12;
const BLOCK_SIZE = 1_000;
/** Handed out by this process: never twice, even before the first is listened on. */
const given = new Set<number>();

/** A port nobody listens on right now, outside the ephemeral range (see above). */
export async function freePort(): Promise<number> {
  const blockStart = RANGE_START + (process.pid % BLOCKS) * BLOCK_SIZE;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = blockStart + randomInt(BLOCK_SIZE);
    if (given.has(port)) continue;
    if ((await listenProblem('127.0.0.1', port)) !== null) continue;
    given.add(port);
    return port;
  }
  return osPickedPort();
}

/** The OS's pick: free now (the fallback when the block is crowded). */
function osPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Whether `port` can be listened on at `host` right now: null if so, else the error code (EADDRINUSE, EADDRNOTAVAIL, EACCES…). */
export function listenProblem(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ host: host.replace(/^\[|\]$/g, ''), port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}
