import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request a receiver got, as it arrived (the raw body is what signatures cover). */
export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
  /** 1 for the first request on this path. */
  n: number;
}

/** How to answer: a status (after an optional delay), or never ('hang'). */
export type WebhookReply = { status: number; body?: string; delayMs?: number } | 'hang';

/**
 * A real HTTP receiver on 127.0.0.1 (port 0) for webhook tests. Each path is
 * one endpoint; its behaviour is set per path (default: 200). It records
 * every request and how many were open at once.
 */
export class WebhookReceiver {
  private readonly requests: ReceivedWebhook[] = [];
  private readonly replies = new Map<string, (request: ReceivedWebhook) => WebhookReply>();
  private readonly open = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly waiters = new Set<() => void>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => receiver.handle(req, res));
    server.on('connection', (socket) => {
      receiver.sockets.add(socket);
      socket.on('close', () => receiver.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  url(path = '/'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** Sets how `path` answers; the function sees each request (n counts from 1). */
  respond(path: string, reply: (request: ReceivedWebhook) => WebhookReply): void {
    this.replies.set(path, reply);
  }

  received(path?: string): ReceivedWebhook[] {
    return this.requests.filter((r) => path === undefined || r.path === path);
  }

  /** Most requests that were open at the same time on `path`. */
  peakConcurrency(path: string): number {
    return this.peak.get(path) ?? 0;
  }

  /** Resolves once `count` requests match (or throws after timeoutMs). */
  async waitFor(match: (request: ReceivedWebhook) => boolean, count = 1, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.requests.filter(match);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`webhook receiver: ${found.length} of ${count} expected requests arrived in ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, 250));
        this.waiters.add(wake);
      });
    }
  }

  async close(): Promise<void> {
    // Hanging requests would keep close() waiting forever.
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const open = (this.open.get(path) ?? 0) + 1;
      this.open.set(path, open);
      this.peak.set(path, Math.max(open, this.peak.get(path) ?? 0));
      const request: ReceivedWebhook = {
        path,
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        n: this.requests.filter((r) => r.path === path).length + 1,
      };
      this.requests.push(request);
      for (const wake of [...this.waiters]) wake();
      res.on('close', () => this.open.set(path, (this.open.get(path) ?? 1) - 1));
      const reply = this.replies.get(path)?.(request) ?? { status: 200 };
      if (reply === 'hang') return;
      const answer = () => res.writeHead(reply.status, { 'content-type': 'text/plain' }).end(reply.body ?? 'ok');
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  }
}
