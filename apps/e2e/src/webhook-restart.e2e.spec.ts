import { WebhookDeliveryStatus, WebhookService } from '@ris/contracts';
import { domainEvent, type DomainEvent } from '@ris/events';
import { createServiceClient } from '@ris/rpc';
import { type ProcessStack } from '@ris/stack';
import { WebhookReceiver, eventually, publishEvents } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';

// A webhook service of its own (own database and stream), killed with
// SIGKILL while attempts are in flight: nothing pending is lost, nothing
// recorded as successful is sent again, and events published while it was
// down are delivered once it is back. (A kill between a receiver's 2xx and
// the write that records it does send that one again: at least once, and
// the unchanged webhook-id lets the receiver drop it.)
describe('webhook service restart', () => {
  const appId = 'app_restart';
  let stack: ProcessStack;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    stack = ownStack('wr', {
      apps: ['webhook-service'],
      // A 2 s timeout makes the lease of a killed attempt run out after 12 s.
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_SCHEDULE: '1,1,1' },
    });
    await stack.start();
  }, 60_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await receiver?.close();
  });

  const client = () => createServiceClient(WebhookService, stack.serviceUrl('webhook-service'));

  async function publish(count: number): Promise<DomainEvent[]> {
    const events = Array.from({ length: count }, (_, i) => domainEvent('referral.created', appId, { referralId: `ref_${i}_${Date.now()}` }));
    await publishEvents(events, { subjectPrefix: stack.options.eventsSubjectPrefix });
    return events;
  }


  const until = (condition: () => Promise<boolean>, timeoutMs?: number) => eventually(condition, Boolean, timeoutMs);


  async function statuses(endpointId: string): Promise<WebhookDeliveryStatus[]> {
    const res = await client().listDeliveries({ appId, endpointId, page: { page: 1, limit: 100 } });
    return res.deliveries.map((d) => d.status);
  }

  it('loses no pending delivery and repeats no successful one across a SIGKILL', async () => {
    let hanging = true;
    receiver.respond('/slow', () => (hanging ? 'hang' : { status: 200 }));
    const quick = (await client().createEndpoint({ appId, url: receiver.url('/quick') })).endpoint!;
    const slow = (await client().createEndpoint({ appId, url: receiver.url('/slow') })).endpoint!;

    await publish(3);
    await receiver.waitFor((r) => r.path === '/slow', 3);
    // The three to /quick are recorded as SUCCEEDED; the three to /slow are in flight (leased) when the process dies.
    await until(async () => (await statuses(quick.id)).filter((s) => s === WebhookDeliveryStatus.SUCCEEDED).length === 3);
    await stack.stopApp('webhook-service', 'SIGKILL');
    const whileDown = await publish(2);
    hanging = false;
    await stack.startApp('webhook-service');

    // The killed attempts come back once their lease has run out and a sweep (every 10 s) finds it: 2 s
    // timeout + 10 s, or a minute more for those the fan-out stored to wait in line (a loaded machine can
    // fan the three events out apart, after /slow is already seen hanging): up to about 85 s.
    await until(async () => (await statuses(slow.id)).filter((s) => s === WebhookDeliveryStatus.SUCCEEDED).length === 5, 100_000);
    expect(await statuses(quick.id)).toEqual(Array(5).fill(WebhookDeliveryStatus.SUCCEEDED));
    // Each successful delivery arrived once; the killed ones were sent again with the same webhook-id.
    const quickIds = receiver.received('/quick').map((r) => r.headers['webhook-id']);
    expect(quickIds).toHaveLength(5);
    expect(new Set(quickIds).size).toBe(5);
    const slowIds = receiver.received('/slow').map((r) => r.headers['webhook-id']);
    expect(new Set(slowIds).size).toBe(5);
    expect(slowIds).toHaveLength(8);
    for (const event of whileDown) expect(quickIds).toContain(`msg_${event.id.replace(/-/g, '')}`);
  }, 130_000);
});
