import { readFileSync } from 'node:fs';
import type { ProcessStack } from '@ris/stack';
import { ApiClient, OtlpReceiver, WebhookReceiver, eventually, type ReceivedSpan } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

const SERVER = 2;

// A stack of its own whose apps export traces (OTLP/HTTP) to a receiver in
// the test: one POST /conversions is one trace, from the gateway through
// the referral, fraud and reward services, across the event bus to the
// webhook service and the delivery it caused.
describe('one trace per request, across the hop and the event bus', () => {
  let stack: ProcessStack;
  let otlp: OtlpReceiver;
  let receiver: WebhookReceiver;
  let api: ApiClient;

  beforeAll(async () => {
    otlp = await OtlpReceiver.start();
    receiver = await WebhookReceiver.start();
    stack = ownStack('tr', {
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'traced' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
  }, 120_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await otlp?.close();
    await receiver?.close();
  });

  it('shows a conversion from the gateway to the webhook delivery it caused', async () => {
    expect((await api.post('/webhooks', { url: receiver.url('/hooks'), events: ['CONVERSION_CREATED'] })).status).toBe(201);
    const campaignId = (await api.post('/campaigns', { name: 'Traced', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } })).body.campaign.id as string;
    const { referralCode } = (await api.post('/referrals', { campaignId, referrerId: 'tracer' })).body as { referralCode: string };
    const requestId = `trace-${Date.now()}`;
    const res = await api.post('/conversions', { referralCode, refereeId: 'traced-buyer' }, { 'x-request-id': requestId });
    expect(res.status).toBe(201);
    await receiver.waitFor((r) => r.path === '/hooks');

    // The gateway's span of the request is the trace's root.
    const root = await eventually(
      async () => otlp.spans.find((s) => s.service === 'gateway' && s.kind === SERVER && s.parentSpanId === '' && s.attributes['http.route'] === '/api/v1/conversions'),
      (span) => span !== undefined,
      15_000,
    );
    const traceId = (root as ReceivedSpan).traceId;
    // Each service exports its spans in batches of its own, so the trace is
    // complete only when every span asserted below has arrived: wait for that.
    const expected = [
      'gateway referral.v1.ReferralService/RecordConversion',
      'referral-service referral.v1.ReferralService/RecordConversion',
      'fraud-service fraud.v1.FraudService/ScoreConversion',
      'webhook-service webhook.deliver',
      // Across the bus: published by the referral service, consumed by the webhook fan-out, delivered.
      'referral-service publish conversion.created',
      'webhook-service consume conversion.created',
    ];
    const namesOf = (found: ReceivedSpan[]) => found.map((s) => `${s.service} ${s.name}`);
    const complete = (found: ReceivedSpan[]) => {
      const names = namesOf(found);
      const ids = new Set(found.map((s) => s.spanId));
      return expected.every((n) => names.includes(n))
        && names.some((n) => n.startsWith('reward-service reward.v1.RewardService/'))
        && found.every((s) => s.parentSpanId === '' || ids.has(s.parentSpanId));
    };
    let spans: ReceivedSpan[] = [];
    try {
      spans = await eventually(async () => otlp.trace(traceId), complete, 40_000);
    } catch {
      // Not complete in time: fall through to the assertions, which say what is missing.
      spans = otlp.trace(traceId);
    }
    const names = namesOf(spans);
    // The hop, on both sides, and across the bus.
    expect(expected.filter((n) => !names.includes(n))).toEqual([]);
    expect(names.some((n) => n.startsWith('reward-service reward.v1.RewardService/'))).toBe(true);
    // MongoDB commands are in it too.
    expect(spans.some((s) => s.service === 'referral-service' && (s.attributes['db.system.name'] ?? s.attributes['db.system']) === 'mongodb')).toBe(true);
    // Every span but the root has its parent in the trace: one tree.
    const ids = new Set(spans.map((s) => s.spanId));
    expect(spans.filter((s) => s.parentSpanId !== '' && !ids.has(s.parentSpanId)).map((s) => `${s.service} ${s.name}`)).toEqual([]);

    // Log lines carry the trace and span ids next to the request id.
    const logged = await eventually(
      async () => readFileSync(stack.logFile('referral-service'), 'utf8')
        .split('\n')
        .filter((line) => line.includes(requestId))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
      (lines) => lines.some((line) => line.traceId === traceId),
      10_000,
    ).catch(() => [] as Record<string, unknown>[]);
    expect(logged).toEqual(expect.arrayContaining([expect.objectContaining({ requestId, traceId, spanId: expect.stringMatching(/^[0-9a-f]{16}$/) })]));
  }, 90_000);

  it('records no credential in a span: an invitation link\'s token and a query (an embed token rides there) are left out', async () => {
    // 43 characters, the shape of a real link's token (a malformed one is refused before the lookup).
    const token = 'invitationTokenThatMustNotLeak0123456789abc';
    const console = new ApiClient(`${stack.gatewayUrl}/console/v1`);
    expect((await console.get(`/invitations/${token}?embed=also-secret`)).status).toBe(404);
    const span = await eventually(
      async () => otlp.spans.find((s) => s.service === 'gateway' && s.kind === SERVER && String(s.attributes['url.path'] ?? '').startsWith('/console/v1/invitations/')),
      (found) => found !== undefined,
    );
    expect(span!.attributes['url.path']).toBe('/console/v1/invitations/{token}');
    expect(span!.attributes['url.query']).toBeUndefined();
    expect(JSON.stringify(otlp.spans)).not.toContain(token);
    expect(JSON.stringify(otlp.spans)).not.toContain('also-secret');
  });
});
