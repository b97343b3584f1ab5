import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, NetworkError, RequestTimeoutError } from './errors';
import { ReferralIncentiveClient } from './client';

/** A real HTTP server on loopback answering from a script, one entry per request; it records what it got. */
class ScriptedServer {
  readonly requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
  private script: Array<(res: ServerResponse) => void> = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<ScriptedServer> {
    const server = createServer();
    const scripted = new ScriptedServer(server);
    server.on('request', (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        scripted.requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
        const next = scripted.script.shift() ?? ((r: ServerResponse) => json(r, 500, { error: { code: 'INTERNAL', message: 'unscripted', requestId: 'r' } }));
        next(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return scripted;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answer(...steps: Array<(res: ServerResponse) => void>): void {
    this.script = steps;
    this.requests.length = 0;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
const ok = (body: unknown) => (res: ServerResponse) => json(res, 200, body);
const unavailable = (res: ServerResponse) => json(res, 503, { error: { code: 'UNAVAILABLE', message: 'retry', requestId: 'req-503' } });
const hang = () => undefined;

describe('the client over HTTP (a local server)', () => {
  let server: ScriptedServer;
  let client: ReferralIncentiveClient;

  beforeAll(async () => {
    server = await ScriptedServer.start();
    client = new ReferralIncentiveClient({ baseUrl: server.url, apiKey: 'rk_live_test', timeoutMs: 500, retry: { baseDelayMs: 5 } });
  });
  afterAll(() => server.close());

  it('sends the key, the query and a JSON body, with a new Idempotency-Key for every POST', async () => {
    server.answer(ok({ campaigns: [], pagination: { page: 2, limit: 5, totalItems: 0, totalPages: 0 } }), ok({ referralCode: 'A' }), ok({ referralCode: 'B' }));
    await client.campaigns.list({ page: 2, limit: 5, status: 'ACTIVE' });
    await client.referrals.create({ campaignId: 'c', referrerId: 'u' });
    await client.referrals.create({ campaignId: 'c', referrerId: 'u' });
    const [list, first, second] = server.requests;
    expect([list.method, list.url, list.headers.authorization, list.headers['idempotency-key']]).toEqual([
      'GET', '/api/v1/campaigns?page=2&limit=5&status=ACTIVE', 'Bearer rk_live_test', undefined,
    ]);
    expect([first.method, first.headers['content-type'], JSON.parse(first.body)]).toEqual(['POST', 'application/json', { campaignId: 'c', referrerId: 'u' }]);
    expect(first.headers['idempotency-key']).toMatch(/^sdk-[0-9a-f-]{36}$/);
    expect(second.headers['idempotency-key']).not.toBe(first.headers['idempotency-key']);
  });

  it('retries a 503 of a POST with the same Idempotency-Key, and of a GET', async () => {
    server.answer(unavailable, unavailable, ok({ success: true }), unavailable, ok({ campaign: { id: 'c' } }));
    await client.clicks.record({ referralCode: 'ABC' }, { idempotencyKey: 'click-1' });
    await client.campaigns.get('c/1');
    expect(server.requests.map((r) => [r.method, r.url, r.headers['idempotency-key']])).toEqual([
      ['POST', '/api/v1/clicks', 'click-1'],
      ['POST', '/api/v1/clicks', 'click-1'],
      ['POST', '/api/v1/clicks', 'click-1'],
      ['GET', '/api/v1/campaigns/c%2F1', undefined],
      ['GET', '/api/v1/campaigns/c%2F1', undefined],
    ]);
  });

  it('never retries a 503 of what might be applied twice: a POST without a key, a PATCH', async () => {
    server.answer(unavailable);
    await expect(client.clicks.record({ referralCode: 'ABC' }, { idempotencyKey: null })).rejects.toMatchObject({ status: 503, code: 'UNAVAILABLE', requestId: 'req-503' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].headers['idempotency-key']).toBeUndefined();
    server.answer(unavailable);
    await expect(client.campaigns.update('c', { name: 'x' })).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 429 of any method after its Retry-After, and gives up on one longer than maxDelayMs', async () => {
    const limited = (seconds: string) => (res: ServerResponse) => json(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down', requestId: 'r' } }, { 'retry-after': seconds });
    server.answer(limited('1'), ok({ campaign: { id: 'c' } }));
    const started = Date.now();
    await client.campaigns.update('c', { name: 'x' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(server.requests).toHaveLength(2);
    server.answer(limited('3600'));
    await expect(client.campaigns.list()).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 3_600_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('throws the error envelope as a typed ApiError, not retried', async () => {
    server.answer((res) => json(res, 422, { error: { code: 'CAMPAIGN_INACTIVE', message: 'Campaign c is PAUSED', details: { status: 'PAUSED' }, requestId: 'req-1' } }));
    const error = await client.referrals.create({ campaignId: 'c', referrerId: 'u' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 'CAMPAIGN_INACTIVE', message: 'Campaign c is PAUSED', requestId: 'req-1', details: { status: 'PAUSED' } });
    expect(server.requests).toHaveLength(1);
  });

  it('times a try out, retries it when idempotent, and says so when none answered', async () => {
    server.answer(hang, ok({ campaigns: [], pagination: { page: 1, limit: 25, totalItems: 0, totalPages: 0 } }));
    await client.campaigns.list();
    expect(server.requests).toHaveLength(2);
    server.answer(hang, hang, hang, hang);
    await expect(client.campaigns.get('c', { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(server.requests).toHaveLength(4);
    server.answer(hang);
    await expect(client.campaigns.update('c', { name: 'x' }, { timeoutMs: 100 })).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a request that got no answer as a NetworkError', async () => {
    const closed = await ScriptedServer.start();
    const url = closed.url;
    await closed.close();
    const offline = new ReferralIncentiveClient({ baseUrl: url, apiKey: 'rk_live_test', retry: false });
    await expect(offline.campaigns.list()).rejects.toBeInstanceOf(NetworkError);
  });

  it('iterates a list page by page to its end', async () => {
    const page = (n: number, ids: string[]) => ok({ campaigns: ids.map((id) => ({ id })), pagination: { page: n, limit: 2, totalItems: 5, totalPages: 3 } });
    server.answer(page(1, ['a', 'b']), page(2, ['c', 'd']), page(3, ['e']));
    const ids: string[] = [];
    for await (const campaign of client.campaigns.iterate({ limit: 2 })) ids.push(campaign.id);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/campaigns?limit=2&page=1', '/api/v1/campaigns?limit=2&page=2', '/api/v1/campaigns?limit=2&page=3']);
  });
});
