// A signup flow with referrals, as an app's backend runs it with the SDK:
//
//   1. your backend listens for webhooks, and registers the endpoint;
//   2. a campaign whose hosted links lead to your signup page;
//   3. Alice asks for her referral link (and could show the widget);
//   4. Bob opens Alice's link: the click is recorded, he lands on your page with ?ref=<code>;
//   5. Bob signs up: your signup handler records the conversion with the ref it got;
//   6. the webhooks arrive, verified with verifyWebhook.
//
// Run against `npm start` with `npm run example:signup` (examples/signup-flow/README.md).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, ReferralIncentiveClient, verifyWebhook, type WebhookEvent } from '@referral-incentive/sdk';

const baseUrl = process.env.RIS_API_URL ?? 'http://127.0.0.1:8080';
const apiKey = process.env.RIS_API_KEY;
if (!apiKey) throw new Error('Set RIS_API_KEY to an API key of your app (npm start prints one).');

const ris = new ReferralIncentiveClient({ baseUrl, apiKey });
const log = (step: string, detail = '') => console.log(`• ${step}${detail ? `: ${detail}` : ''}`);

/** Your backend's webhook route: the raw body (signatures cover it), verified before anything is believed. */
async function startWebhookReceiver(getSecret: () => string) {
  const events: WebhookEvent[] = [];
  const waiting: Array<() => void> = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        const event = verifyWebhook(body, req.headers, getSecret());
        // A delivery may come twice: dedupe on its id.
        if (!events.some((e) => e.id === event.id)) events.push(event);
        res.writeHead(204).end();
        waiting.splice(0).forEach((wake) => wake());
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/referrals`,
    async next(name: string, timeoutMs = 20_000): Promise<WebhookEvent> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find((e) => e.event === name);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no ${name} webhook within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 250);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const run = Date.now().toString(36);
  let secret = '';
  const receiver = await startWebhookReceiver(() => secret);
  const endpoint = await ris.webhooks.create({ url: receiver.url, events: ['CONVERSION_CREATED', 'REWARD_CREATED'], description: 'signup-flow example' });
  secret = endpoint.secret;
  log('1. webhook endpoint registered', receiver.url);
  try {
    const { campaign } = await ris.campaigns.create({
      name: `Invite a friend (${run})`,
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
      landingUrl: 'https://shop.example.com/signup',
    });
    log('2. campaign', `${campaign.name} → ${campaign.landingUrl}`);

    const alice = `alice-${run}`;
    const { referralCode } = await ris.referrals.create({ campaignId: campaign.id, referrerId: alice });
    const link = `${baseUrl}/r/${referralCode}`;
    log('3. Alice’s hosted link', link);

    // Bob's browser follows the link; here we stop at the redirect to read where it leads.
    const visit = await fetch(`${link}?utm_source=example&utm_medium=email`, { redirect: 'manual', headers: { 'user-agent': 'Mozilla/5.0 (signup-flow example)' } });
    const landing = new URL(visit.headers.get('location') ?? '');
    log('4. Bob opened it', `${visit.status} → ${landing.href}`);

    // Your signup page kept ?ref=…; your signup handler sends it with the new user.
    const bob = `bob-${run}`;
    const ref = landing.searchParams.get('ref');
    if (!ref) throw new Error('the landing URL carries no ref');
    const conversion = await ris.conversions.record({ referralCode: ref, refereeId: bob, amount: 49 });
    log('5. Bob signed up', `conversion ${conversion.conversionId}, rewards ${conversion.rewards.map((r) => `${r.userId}:${r.amount}`).join(', ')}`);

    const converted = await receiver.next('CONVERSION_CREATED');
    log('6. webhook verified', `${converted.event} ${converted.id}`);
    const stats = await ris.stats.campaign(campaign.id);
    log('   campaign stats', `${stats.totalClicks} click, ${stats.totalConversions} conversion, reward value ${stats.totalRewardValue}`);
  } finally {
    await ris.webhooks.delete(endpoint.webhook.id).catch(() => undefined);
    await receiver.close();
  }
  console.log('done: signup flow complete');
}

main().catch((err: unknown) => {
  console.error(err instanceof ApiError ? `API error ${err.status} ${err.code}: ${err.message} (request ${err.requestId})` : err);
  process.exit(1);
});
