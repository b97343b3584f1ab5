import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { AttemptResult } from '../deliveries/delivery-attempt.model';
import { checkTarget, parseWebhookUrl, urlHost, type ResolvedAddress, type Resolver } from '../targets/url-guard';

/** How much of a receiver's answer is kept in the attempt log. */
export const RESPONSE_BODY_LIMIT = 2048;
const USER_AGENT = 'ris-webhooks/1.0 (+https://www.standardwebhooks.com)';

export interface WebhookPost {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  resolve?: Resolver;
  /** Aborted when the service stops: the attempt ends at once. */
  signal?: AbortSignal;
}

/** What one attempt gave, as the delivery's attempt log keeps it. */
export type WebhookPostResult = AttemptResult;

// Keep-alive: a busy endpoint reuses its connections. A pooled socket was
// opened to an address that passed the check, so reusing it is as safe.
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, maxFreeSockets: 256, scheduling: 'lifo' }),
};

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` that answers with the addresses already checked: the
 * connection goes exactly where the guard looked, whatever DNS says by now.
 */
function pinnedLookup(addresses: ResolvedAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    if (options.all) callback(null, addresses.map(({ address, family }) => ({ address, family })));
    else callback(null, addresses[0].address, addresses[0].family);
  };
}

/**
 * What ends an attempt early (its timeout, the service stopping): a
 * promise that fails with the reason, and a hook the running step sets to
 * cut its own work (the request). Plain callbacks, not an AbortController
 * per attempt: creating its AbortSignal was the dearest single call of an
 * attempt in the profile.
 */
class AttemptDeadline {
  readonly failed: Promise<never>;
  private fail!: (reason: Error) => void;
  private reason: Error | null = null;
  private cut: ((reason: Error) => void) | null = null;

  constructor() {
    this.failed = new Promise<never>((_resolve, reject) => (this.fail = reject));
    // Raced against each step; unobserved when the attempt ends first.
    this.failed.catch(() => undefined);
  }

  end(reason: Error): void {
    if (this.reason) return;
    this.reason = reason;
    this.fail(reason);
    this.cut?.(reason);
  }

  /** `cut` runs when the attempt ends early (at once if it has already). */
  onEnd(cut: (reason: Error) => void): void {
    this.cut = cut;
    if (this.reason) cut(this.reason);
  }
}

const errorText = (err: unknown): string => {
  if (err instanceof Error) {
    const code = (err as NodeJS.ErrnoException).code;
    return code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
  }
  return String(err);
};

/**
 * POSTs one signed webhook. Never throws: every failure (refused target,
 * DNS, connection, timeout, stop) comes back as `error`. The timeout covers
 * the whole attempt, from the DNS lookup to the last byte kept.
 */
export async function postWebhook(post: WebhookPost): Promise<WebhookPostResult> {
  const startedAt = new Date();
  const started = performance.now();
  const deadline = new AttemptDeadline();
  const timer = setTimeout(() => deadline.end(new Error(`timed out after ${post.timeoutMs} ms`)), post.timeoutMs);
  const onStop = () => deadline.end(new Error('the webhook service is stopping'));
  post.signal?.addEventListener('abort', onStop, { once: true });
  if (post.signal?.aborted) onStop();
  const finish = (fields: Partial<WebhookPostResult>): WebhookPostResult => ({
    startedAt,
    durationMs: Math.round(performance.now() - started),
    responseStatus: null,
    error: null,
    responseBody: '',
    responseBodyTruncated: false,
    ...fields,
  });
  try {
    const url = parseWebhookUrl(post.url);
    // Checked again at every attempt: DNS may have changed since the endpoint was saved.
    const addresses = await Promise.race([checkTarget(url, post), deadline.failed]);
    return finish(await send(url, addresses, post, deadline));
  } catch (err) {
    return finish({ error: errorText(err) });
  } finally {
    clearTimeout(timer);
    post.signal?.removeEventListener('abort', onStop);
  }
}

function send(
  url: URL,
  addresses: ResolvedAddress[],
  post: WebhookPost,
  deadline: AttemptDeadline,
): Promise<Pick<WebhookPostResult, 'responseStatus' | 'responseBody' | 'responseBodyTruncated'>> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: urlHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      agent: agents[url.protocol as 'http:' | 'https:'],
      lookup: pinnedLookup(addresses),
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(post.body)),
        'user-agent': USER_AGENT,
        ...post.headers,
      },
    });
    let settledAll = false;
    // Ended early: the request is destroyed with the reason, which rejects below (unless it already settled).
    deadline.onEnd((reason) => settledAll || req.destroy(reason));
    const done = () => (settledAll = true);
    req.on('error', (err) => {
      done();
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let truncated = false;
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        done();
        resolve({
          responseStatus: res.statusCode ?? null,
          responseBody: Buffer.concat(chunks).toString('utf8'),
          responseBodyTruncated: truncated,
        });
      };
      res.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = RESPONSE_BODY_LIMIT - kept;
        chunks.push(chunk.subarray(0, room));
        kept += Math.min(room, chunk.length);
        if (chunk.length > room) {
          // Enough to show in the log; the rest is not worth waiting for.
          truncated = true;
          res.destroy();
          settle();
        }
      });
      res.on('end', settle);
      res.on('error', (err) => {
        if (settled) return;
        settled = true;
        done();
        reject(err);
      });
    });
    req.end(post.body);
  });
}
