import { ApiError, NetworkError, RequestTimeoutError } from './errors';
import { DEFAULT_RETRY, parseRetryAfter, retryable, retryDelayMs, type Failure, type RetryOptions } from './retry-policy';
import type { Method, Path, Result } from './types';

export interface ClientOptions {
  /** The gateway's origin, e.g. `https://api.example.com` (operations are under /api/v1). */
  baseUrl: string;
  /** An API key of your app (`rk_live_…`). Keep it on your server: it can do anything in your app. */
  apiKey: string;
  /** How long one try may wait for its answer (default 10 s). */
  timeoutMs?: number;
  /** How failed requests are retried (see RetryOptions); false turns retries off. */
  retry?: RetryOptions | false;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** This request's timeout per try. */
  timeoutMs?: number;
  /** Aborts the request, and its retries. */
  signal?: AbortSignal;
  /** This request's retries; false: none. */
  retry?: RetryOptions | false;
  headers?: Record<string, string>;
}

export interface PostOptions extends RequestOptions {
  /**
   * The request's `Idempotency-Key`. By default a new random one per call,
   * kept across its retries: the API applies them once. Give your own to
   * make a retry of your own (after a crash, say) the same operation; null
   * sends none, and the request is then never retried after a 503, a
   * timeout or a network error.
   */
  idempotencyKey?: string | null;
}

export interface Call {
  /** Values of the path's {placeholders}. */
  params?: Record<string, string | number>;
  query?: object;
  body?: unknown;
}

function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`missing path value ${name}`);
    return encodeURIComponent(String(value));
  });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const newIdempotencyKey = () => `sdk-${globalThis.crypto.randomUUID()}`;

/**
 * One HTTP exchange with the API, retried when that is safe: JSON in and
 * out, the API key, an Idempotency-Key for every POST, a timeout per try,
 * backoff with jitter (or the server's Retry-After), and errors as
 * ApiError, RequestTimeoutError or NetworkError.
 */
export class Transport {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    if (!options.baseUrl) throw new TypeError('baseUrl is required');
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async request<P extends Path, M extends Method>(method: M, path: P, call: Call = {}, options: PostOptions = {}): Promise<Result<P, M>> {
    const url = new URL(`${this.baseUrl}${fillPath(path, call.params)}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(item));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...options.headers,
      authorization: `Bearer ${this.options.apiKey}`,
    };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const key = method === 'post' ? (options.idempotencyKey === undefined ? newIdempotencyKey() : options.idempotencyKey) : null;
    if (key !== null) headers['idempotency-key'] = key;
    const idempotent = method === 'get' || key !== null;
    const retry = options.retry === false || this.options.retry === false ? { ...DEFAULT_RETRY, maxRetries: 0 } : { ...DEFAULT_RETRY, ...this.options.retry, ...options.retry };
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 10_000;
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);

    for (let attempt = 0; ; attempt += 1) {
      let failure: Failure;
      let error: Error;
      let retryAfterMs: number | undefined;
      try {
        const answer = await this.once(url, method.toUpperCase(), headers, body, timeoutMs, options.signal);
        if (answer.ok) return answer.json as Result<P, M>;
        failure = { kind: 'status', status: answer.status };
        error = answer.error;
        retryAfterMs = (answer.error as ApiError).retryAfterMs;
      } catch (err) {
        if (options.signal?.aborted) throw err;
        failure = err instanceof RequestTimeoutError ? { kind: 'timeout' } : { kind: 'network' };
        error = err as Error;
      }
      const tooLong = retryAfterMs !== undefined && retryAfterMs > retry.maxDelayMs;
      if (attempt >= retry.maxRetries || tooLong || !retryable(failure, idempotent)) throw error;
      await sleep(retryDelayMs(attempt + 1, retry, retryAfterMs), options.signal);
    }
  }

  /** One try: the parsed answer, an ApiError for an error answer; throws RequestTimeoutError or NetworkError without one. */
  private async once(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<{ ok: true; json: unknown } | { ok: false; status: number; error: ApiError }> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const res = await this.fetch(url, { method, headers, body, signal: controller.signal });
      const text = await res.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      if (res.ok) return { ok: true, json };
      const envelope = (json as { error?: { code?: string; message?: string; requestId?: string; details?: Record<string, unknown> } } | undefined)?.error;
      return {
        ok: false,
        status: res.status,
        error: new ApiError(
          res.status,
          envelope?.code ?? `HTTP_${res.status}`,
          envelope?.message ?? `${method} ${url.pathname} answered ${res.status}`,
          envelope?.requestId ?? res.headers.get('x-request-id') ?? undefined,
          envelope?.details,
          parseRetryAfter(res.headers.get('retry-after')),
        ),
      };
    } catch (err) {
      if (timedOut) throw new RequestTimeoutError(timeoutMs);
      if (signal?.aborted) throw err;
      throw new NetworkError(`${method} ${url.pathname} got no answer: ${(err as Error).message}`, { cause: err });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}
