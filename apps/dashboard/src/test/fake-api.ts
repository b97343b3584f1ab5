import { vi } from 'vitest';

/** One request the dashboard sent, as the server would see it. */
export interface SentRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Reply = { status?: number; body?: unknown; headers?: Record<string, string> };
type Handler = { method: string; path: string | RegExp; reply: Reply | ((request: SentRequest) => Reply) };

/**
 * A stand-in for the gateway at the fetch level: answers the routes a test
 * declares (first match wins, later `on` calls take precedence) and records
 * every request. An undeclared route answers 404 in the API's envelope.
 */
export class FakeApi {
  readonly requests: SentRequest[] = [];
  private handlers: Handler[] = [];

  on(method: string, path: string | RegExp, reply: Handler['reply']): this {
    this.handlers.unshift({ method, path, reply });
    return this;
  }

  /** Requests of a method to a path (exact, without the query). */
  sent(method: string, path: string): SentRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  install(): this {
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      const sent: SentRequest = {
        method: request.method,
        path: url.pathname,
        query: url.searchParams,
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      };
      this.requests.push(sent);
      const handler = this.handlers.find((h) => h.method === sent.method && (typeof h.path === 'string' ? h.path === sent.path : h.path.test(sent.path)));
      const reply = handler ? (typeof handler.reply === 'function' ? handler.reply(sent) : handler.reply) : notFound(sent);
      const status = reply.status ?? 200;
      const hasBody = reply.body !== undefined && status !== 204;
      return new Response(hasBody ? JSON.stringify(reply.body) : null, {
        status,
        headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...reply.headers },
      });
    });
    return this;
  }
}

function notFound(request: SentRequest): Reply {
  return { status: 404, body: { error: { code: 'NOT_FOUND', message: `No fake route for ${request.method} ${request.path}`, requestId: 'req_test' } } };
}

/** The API's error envelope. */
export function apiError(status: number, code: string, message: string, details?: unknown, headers?: Record<string, string>): Reply {
  return { status, body: { error: { code, message, requestId: 'req_test', ...(details ? { details } : {}) } }, headers };
}

export function page(totalItems: number, pageNumber = 1, limit = 25) {
  return { page: pageNumber, limit, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / limit)) };
}
