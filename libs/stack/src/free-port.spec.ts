import { createServer } from 'node:net';
import { freePort, listenProblem } from './free-port';

describe('freePort', () => {
  it('hands out distinct ports below the ephemeral range, each free to listen on', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 30; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(30);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(32_768);
      expect(await listenProblem('127.0.0.1', port)).toBeNull();
    }
  });

  it('never hands out a port someone listens on', async () => {
    // Occupy this process's whole block but one port: freePort must find that one (or fall back to the OS).
    const block = 20_000 + (process.pid % 12) * 1_000;
    const servers = [];
    for (let port = block; port < block + 999; port += 1) {
      const server = createServer();
      const ok = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false));
        server.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (ok) servers.push(server);
    }
    try {
      for (let i = 0; i < 5; i += 1) expect(await listenProblem('127.0.0.1', await freePort())).toBeNull();
    } finally {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
