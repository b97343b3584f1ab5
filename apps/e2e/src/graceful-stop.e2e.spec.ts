import type { AppName, ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, eventually, readEvents, type ApiResponse } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// SIGTERM (what Kubernetes sends) to a service, the gateway and the webhook
// service while requests, calls and webhook attempts are in flight: each of
// them completes (none is answered 5xx because of the stop), the process
// exits 0 within its grace, and every event and delivery is there once.
// Work is held in flight deterministically by pausing (SIGSTOP) the process
// a call waits on, then resuming it (SIGCONT) after the SIGTERM.
describe('graceful stop', () => {
  let stack: ProcessStack;
  let receiver: WebhookReceiver;
  let api: ApiClient;
  let campaignId: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = ownStack('gs', {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: {
        // Longer than the RPC server's former 2 s drain: a conversion waits on a paused fraud service that long.
        'referral-service': { FRAUD_TIMEOUT_MS: '8000' },
      },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'graceful' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
    campaignId = (await api.post('/campaigns', { name: 'Graceful', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } })).body.campaign.id;
  }, 120_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await receiver?.close();
  });

  const signal = (app: AppName, sig: NodeJS.Signals) => process.kill(stack.pid(app) as number, sig);

  /** SIGTERMs the app (not waiting), resumes `paused` after `resumeAfterMs`, and says how the app exited. */
  async function terminateWhile(app: AppName, paused: AppName, resumeAfterMs: number) {
    const stopped = stack.stopApp(app, 'SIGTERM');
    await pause(resumeAfterMs);
    signal(paused, 'SIGCONT');
    await stopped;
    return stack.lastExit(app);
  }

  /** A gauge's value on the app's /metrics: the first sample of that name whose labels contain `labels`. */
  async function gauge(app: AppName, name: string, labels = ''): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${stack.metricsPort(app)}/metrics`)).text();
    const line = text.split('\n').find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && l.includes(labels));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  const onStream = (type: string, match: (data: Record<string, unknown>) => boolean) =>
    readEvents(type, (e) => match(e.data as Record<string, unknown>), { stream: stack.options.eventsStream, subjectPrefix: stack.options.eventsSubjectPrefix });

  it('a service finishes the calls in flight, and publishes their events once', async () => {
    expect((await api.post('/webhooks', { url: receiver.url('/conversions'), events: ['CONVERSION_CREATED'] })).status).toBe(201);
    const codes: string[] = [];
    for (let i = 0; i < 12; i += 1) codes.push((await api.post('/referrals', { campaignId, referrerId: `seller-${i}` })).body.referralCode);

    // Every conversion waits in the referral service on the fraud check.
    signal('fraud-service', 'SIGSTOP');
    const answers = Promise.all(codes.map((referralCode, i) => api.post('/conversions', { referralCode, refereeId: `buyer-${i}` })));
    // Every call has reached the referral service before it is told to stop (one sent after it is refused: the caller's to retry).
    await eventually(() => gauge('referral-service', 'ris_rpc_server_in_flight', 'method="RecordConversion"'), (n) => n === codes.length, 30_000);
    const exit = await terminateWhile('referral-service', 'fraud-service', 3000);
    const results: ApiResponse[] = await answers;

    expect(results.map((r) => r.status)).toEqual(codes.map(() => 201));
    expect(exit).toEqual({ code: 0, signal: null });
    // Published before it exited (the relay sends what was written), each once.
    for (let i = 0; i < codes.length; i += 1) {
      expect(await onStream('conversion.created', (d) => d.refereeId === `buyer-${i}`)).toHaveLength(1);
    }
    await stack.startApp('referral-service');
    const delivered = await receiver.waitFor((r) => r.path === '/conversions', codes.length);
    await pause(2000);
    const ids = receiver.received('/conversions').map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(codes.length);
    expect(new Set(ids).size).toBe(delivered.length);
  }, 90_000);

  it('the gateway finishes the requests in flight before it exits', async () => {
    signal('referral-service', 'SIGSTOP');
    const answers = Promise.all(Array.from({ length: 20 }, () => api.get(`/campaigns/${campaignId}`)));
    await eventually(() => gauge('gateway', 'ris_http_requests_in_flight'), (n) => n === 20, 30_000);
    const exit = await terminateWhile('gateway', 'referral-service', 2000);
    const results = await answers;
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    expect(exit).toEqual({ code: 0, signal: null });
    await stack.startApp('gateway');
  }, 60_000);

  it('the webhook service finishes its attempts in flight: none is sent twice', async () => {
    // Slower than the dispatcher's former 5 s stop grace, within WEBHOOK_TIMEOUT_MS (10 s).
    receiver.respond('/slow', () => ({ status: 200, delayMs: 6000 }));
    const webhook = (await api.post('/webhooks', { url: receiver.url('/slow'), events: ['REFERRAL_CREATED'] })).body.webhook as { id: string };
    for (let i = 0; i < 4; i += 1) await api.post('/referrals', { campaignId, referrerId: `slow-${i}` });
    // All four attempts are at the receiver, unanswered.
    await receiver.waitFor((r) => r.path === '/slow', 4);
    const stopped = stack.stopApp('webhook-service', 'SIGTERM');
    await stopped;
    expect(await stack.lastExit('webhook-service')).toEqual({ code: 0, signal: null });
    await stack.startApp('webhook-service');

    const deliveries = await eventually(
      async () => (await api.get(`/webhooks/${webhook.id}/deliveries`)).body.deliveries as Array<{ status: string; attempts: number }>,
      (list) => list.length === 4 && list.every((d) => d.status === 'SUCCEEDED'),
      15_000,
    );
    expect(deliveries.map((d) => d.attempts)).toEqual([1, 1, 1, 1]);
    await pause(3000);
    expect(receiver.received('/slow')).toHaveLength(4);
  }, 90_000);
});
