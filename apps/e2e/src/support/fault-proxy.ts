import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the proxy does with one request: pass it on, or pass it on and then
 * hide the answer from the client (the gateway did the work; the client
 * sees a 503, or nothing until it gives up), as a lost answer would.
 */
export type ProxyFault = 'pass' | 'answer-503-after-forwarding' | 'answer-late-after-forwarding';

/**
 * An HTTP proxy on loopback in front of the gateway, for tests of what a
 * client does when an answer is lost: each request is forwarded whole, and
 * `fault` decides per request what the client gets back. It records every
 * request it forwarded.
 */
export class FaultProxy {
  readonly forwarded: Array<{ method: string; path: string; idempotencyKey?: string; status: number; replayed: boolean }> = [];

  private constructor(
    private readonly server: Server,
    private readonly target: URL,
    private readonly fault: (req: IncomingMessage, n: number) => ProxyFault,
  ) {}

  static async start(target: string, fault: (req: IncomingMessage, n: number) => ProxyFault): Promise<FaultProxy> {
    const server = createServer();
    const proxy = new FaultProxy(server, new URL(target), fault);
    let n = 0;
    server.on('request', (req, res) => proxy.handle(req, res, (n += 1)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private handle(req: IncomingMessage, res: ServerResponse, n: number): void {
    const fault = this.fault(req, n);
    const upstream = httpRequest(
      { host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers: { ...req.headers, host: this.target.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const key = req.headers['idempotency-key'];
          this.forwarded.push({
            method: req.method!,
            path: req.url!,
            idempotencyKey: typeof key === 'string' ? key : undefined,
            status: answer.statusCode!,
            replayed: answer.headers['idempotent-replayed'] === 'true',
          });
          if (fault === 'answer-503-after-forwarding') {
            res.writeHead(503, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'A dependency is unavailable; retry later.', requestId: 'proxy' } }));
          } else if (fault === 'answer-late-after-forwarding') {
            // Held past the client's timeout; the socket closes with the test.
            setTimeout(() => res.destroy(), 30_000).unref();
          } else {
            res.writeHead(answer.statusCode!, answer.headers);
            res.end(Buffer.concat(chunks));
          }
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
