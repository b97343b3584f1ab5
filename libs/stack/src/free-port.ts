import { createServer } from 'node:net';

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
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
