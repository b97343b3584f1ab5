import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from '@playwright/test';
import Stripe from 'stripe';
import {
  OperatorSession,
  ApiClient,
  WebhookReceiver,
  addMember,
  createOperator,
  createTestApp,
  eventually,
  type ApiResponse,
  type TestApp,
  type TestOperator,
} from '@ris/testing';
import { DESKTOP, PHONE, expect as browserExpect, expectCleanConsole, launchChromium, newDashboardPage, signIn } from './support/browser';
import { serviceDatabase } from './support/referral-scenario';

// A screenshot of every page of the dashboard, of one made-up shop, taken at
// a fixed size in UTC. Every run takes them (each page must load its data);
// they are written to .run/dashboard-screenshots, or, with
// DASHBOARD_SCREENSHOTS=docs (`npm run dashboard:screenshots`), over the
// ones docs/dashboard.md shows, in docs/dashboard/.
const root = join(__dirname, '..', '..', '..');
const outDir = process.env.DASHBOARD_SCREENSHOTS === 'docs' ? join(root, 'docs', 'dashboard') : join(root, '.run', 'dashboard-screenshots');

const DAY_MS = 86_400_000;

function ok(res: ApiResponse, step: string): any {
  if (res.status < 200 || res.status > 299) throw new Error(`${step}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * The past 29 days of a campaign's daily counters: the API counts only what
 * happens now, so the chart's history is written into the counter documents
 * GET /stats/timeseries reads (one per UTC day, never touched again once the
 * day is over), and added to the campaign's totals. Today's bucket is the
 * real one the scenario's requests made.
 */
async function seedHistory(appId: string, campaignId: string): Promise<void> {
  const db = await serviceDatabase('referral');
  try {
    const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const docs = Array.from({ length: 29 }, (_, i) => {
      const daysAgo = 29 - i;
      const start = new Date(today - daysAgo * DAY_MS);
      const day = start.toISOString().slice(0, 10);
      // A small shop's days, of the size of the day the scenario makes.
      const clicks = 11 + Math.round(5 * Math.sin(i / 3)) + (i % 4) + Math.round(i / 5);
      const referrals = Math.max(1, Math.round(clicks / 3) - (i % 2));
      const conversions = Math.round(clicks / 6) + (i % 3 === 0 ? 1 : 0);
      // Now and then a refund or a chargeback.
      const reversals = i % 6 === 2 ? 1 : 0;
      return { _id: `${campaignId}:${day}`, appId, campaignId, interval: 'day', start, partition: day.slice(0, 7), referrals, clicks, conversions, rewardValue: conversions * 15 - reversals * 5, reversals };
    });
    await db.collection('campaign_buckets').insertMany(docs as never[]);
    // The campaign's totals count that history too, so every page's figures agree (GET /stats, GET /stats/campaigns).
    const sum = (pick: (d: (typeof docs)[number]) => number) => docs.reduce((total, d) => total + pick(d), 0);
    await db.collection('campaign_stats').updateOne(
      { _id: campaignId as never },
      {
        $inc: {
          totalReferrals: sum((d) => d.referrals),
          totalClicks: sum((d) => d.clicks),
          totalConversions: sum((d) => d.conversions),
          completedReferrals: sum((d) => Math.min(d.referrals, d.conversions)),
          totalRewardValue: sum((d) => d.rewardValue),
          totalReversals: sum((d) => d.reversals),
        },
        $setOnInsert: { appId, campaignId },
      },
      { upsert: true },
    );
  } finally {
    await db.close();
  }
}

/**
 * The shop's incentive engine: badges, a ladder of levels, actions and a
 * milestone defined by Ana with her session; events, redemptions and
 * marketplace codes sent by the shop's and the blog's backends.
 */
async function seedIncentives(shop: TestApp, blog: TestApp, anaApi: ApiClient): Promise<void> {
  const define = async (path: string, body: Record<string, unknown>) => ok(await anaApi.post(path, body), `define ${path}`);
  await define('/incentives/badges', { key: 'early_bird', name: 'Early bird', description: 'Five purchases in the first month' });
  await define('/incentives/badges', { key: 'gold_member', name: 'Gold member', description: 'Reached the Gold level' });
  await define('/incentives/levels', { level: 1, name: 'Bronze', xpThreshold: 100, rewards: { coins: 20 } });
  await define('/incentives/levels', { level: 2, name: 'Silver', xpThreshold: 400, rewards: { coins: 50, perks: ['free shipping'] } });
  await define('/incentives/levels', { level: 3, name: 'Gold', xpThreshold: 1000, rewards: { coins: 150, badgeKey: 'gold_member', perks: ['priority support'] } });
  await define('/incentives/actions', { key: 'daily_login', name: 'Daily login', type: 'STANDARD', coins: 5, xp: 10, cooldown: 86_400 });
  await define('/incentives/actions', { key: 'product_review', name: 'Product review', type: 'STANDARD', coins: 20, xp: 40, maxRepeats: 5 });
  await define('/incentives/actions', { key: 'referee_converted', name: 'Friend converted', type: 'REFERRAL_REFEREE_ACTION', coins: 100, xp: 150 });
  await define('/incentives/actions', { key: 'newsletter', name: 'Newsletter sign-up', type: 'STANDARD', coins: 10, enabled: false });
  await define('/incentives/milestones/definitions', { key: 'five_purchases', name: 'Five purchases', metric: 'EVENTS', threshold: 5, rewards: { coins: 100, badgeKey: 'early_bird' } });

  const api = shop.api;
  // Streaks and boosts by the shop's backend (with its API key: the audit log stays Ana's and Ben's).
  const engage = async (path: string, body: Record<string, unknown>) => ok(await api.post(path, body), `define ${path}`);
  await engage('/incentives/streaks/definitions', { key: 'daily_visit', name: 'Daily visit', period: 'DAILY', freezesPerMonth: 2, rewards: [{ length: 7, coins: 50 }, { length: 30, coins: 300, badgeKey: 'gold_member' }] });
  await engage('/incentives/streaks/definitions', { key: 'weekly_review', name: 'Weekly review', period: 'WEEKLY', actionKeys: ['product_review'], rewards: [{ length: 4, coins: 80 }] });
  await engage('/incentives/boosts', { name: 'Double weekend', multiplier: 2, startsAt: new Date(Date.now() - 3_600_000).toISOString(), endsAt: new Date(Date.now() + 2 * 86_400_000).toISOString() });
  await engage('/incentives/boosts', { name: 'Reviews week', multiplier: 1.5, actionKeys: ['product_review'], startsAt: new Date(Date.now() + 7 * 86_400_000).toISOString(), endsAt: new Date(Date.now() + 14 * 86_400_000).toISOString() });
  ok(await api.put('/incentives/users/alice/settings', { timeZone: 'Europe/Paris' }), 'settings');
  const event = async (userId: string, actionKey: string, metadata?: Record<string, unknown>) =>
    ok(await api.post('/incentives/events', { userId, actionKey, ...(metadata ? { metadata } : {}) }), `event ${actionKey} of ${userId}`);
  for (const order of [1042, 1057, 1063, 1088]) await event('alice', 'first_purchase', { orderId: order });
  for (const userId of ['alice', 'alice', 'bruno', 'chloe', 'emma']) await event(userId, 'daily_login');
  for (const userId of ['alice', 'bruno', 'bruno', 'emma']) await event(userId, 'product_review');
  for (const userId of ['bruno', 'chloe', 'farid']) await event(userId, 'first_purchase', { orderId: 1100 });
  await event('emma', 'newsletter');
  ok(await api.post('/incentives/badges/early_bird/award', { userId: 'bruno' }), 'award');

  const item = async (body: Record<string, unknown>) => ok(await anaApi.post('/incentives/catalog', body), 'item').item;
  const tote = await item({ name: 'Tote bag', description: 'Organic cotton, shop logo', coinCost: 150, inventory: 25, published: true });
  const mug = await item({ name: 'Coffee mug', description: 'Stoneware, 300 ml', coinCost: 60, published: true });
  await item({ name: 'VIP lounge pass', description: 'One evening at the flagship store', coinCost: 500, tokenCost: 2, inventory: 3 });
  const redeem = async (userId: string, itemId: string) => ok(await api.post('/incentives/redeem', { userId, itemId }), `redeem for ${userId}`).redemption;
  await redeem('alice', tote.id);
  ok(await api.patch(`/incentives/redemptions/${(await redeem('bruno', mug.id)).id}`, { status: 'FULFILLED' }), 'fulfil');
  ok(await api.patch(`/incentives/redemptions/${(await redeem('chloe', mug.id)).id}`, { status: 'CANCELLED' }), 'cancel');

  const listing = ok(
    await anaApi.post('/incentives/marketplace/listings', { title: '15 % off your next order', description: 'At any Acme shop', coinCost: 60, quantity: 200, discount: { type: 'PERCENT', value: 15 }, published: true }),
    'listing',
  ).listing;
  ok(await anaApi.post('/incentives/marketplace/listings', { title: '5 off a gift card', coinCost: 120, discount: { type: 'FIXED', value: 5 }, published: false }), 'paused listing');
  // Readers of the blog take the shop's offer with the blog's coins.
  ok(await blog.api.post('/incentives/actions', { key: 'read_article', name: 'Read an article', type: 'STANDARD', coins: 60 }), 'blog action');
  for (const reader of ['lena', 'marc', 'lena', 'ines']) {
    ok(await blog.api.post('/incentives/events', { userId: reader, actionKey: 'read_article' }), 'blog event');
  }
  for (const reader of ['lena', 'marc', 'ines']) ok(await blog.api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: reader }), `marketplace code of ${reader}`);
  ok(await api.post('/incentives/marketplace/redeem', { listingId: listing.id, userId: 'alice' }), 'marketplace code of alice');
}

/**
 * The shop's cash commissions and its Stripe account: an affiliate campaign
 * paying 10 % in cash; Stripe connected by Ana, whose checkouts (one with a
 * referral code, one with a code the shop never issued, one of a type the
 * integration ignores) arrive signed as Stripe signs them; then Ana pays out
 * what referrers are due above $10: Marco's transfer paid, Tom's failed
 * (due again), Alice's waiting (it deducts the $2.00 she owes back).
 */
async function seedPayoutsAndStripe(shop: TestApp, anaApi: ApiClient, ids: Record<string, string>): Promise<void> {
  const affiliate = ok(
    await anaApi.post('/campaigns', { name: 'Affiliate cash', fraud: { flagThreshold: 100 }, referrerReward: { percent: 10, fulfillmentType: 'CASH' } }),
    'affiliate',
  ).campaign;
  const api = shop.api;
  const codes: Record<string, string> = {};
  for (const [referrerId, sales] of [
    ['alice', [120, 90]],
    ['marco', [250]],
    ['sofia', [30]],
    ['tom', [180]],
  ] as const) {
    codes[referrerId] = ok(await api.post('/referrals', { campaignId: affiliate.id, referrerId }), `cash code of ${referrerId}`).referralCode;
    for (const [i, amount] of sales.entries()) ok(await api.post('/conversions', { referralCode: codes[referrerId], refereeId: `${referrerId}-client-${i}`, amount }), 'cash sale');
  }

  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const endpointUrl = ok(await anaApi.put('/integrations/stripe', { webhookSecret: secret, campaignId: affiliate.id }), 'connect Stripe').integration.endpointUrl;
  const checkout = (clientReferenceId: string, amountTotal: number, metadata: Record<string, string> = {}) => ({
    id: `cs_${randomBytes(8).toString('hex')}`,
    object: 'checkout.session',
    mode: 'payment',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: clientReferenceId,
    customer: `cus_${randomBytes(6).toString('hex')}`,
    metadata,
    amount_total: amountTotal,
    currency: 'usd',
  });
  for (const [type, object] of [
    ['customer.created', { id: `cus_${randomBytes(6).toString('hex')}`, object: 'customer' }],
    ['checkout.session.completed', checkout(codes.sofia!, 6000, { refereeId: 'noah' })],
    ['checkout.session.completed', checkout('SPRING-2025', 4500)],
  ] as const) {
    const body = JSON.stringify({ id: `evt_${randomBytes(12).toString('hex')}`, object: 'event', type, livemode: false, created: Math.floor(Date.now() / 1000), data: { object } });
    const res = await fetch(endpointUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) }, body });
    if (res.status !== 200) throw new Error(`Stripe event ${type}: ${res.status} ${await res.text()}`);
  }

  const made = ok(await anaApi.post('/payouts', { minimumAmount: 10 }), 'payouts').payouts as Array<{ id: string; userId: string }>;
  const of = (userId: string) => made.find((p) => p.userId === userId)!.id;
  ok(await anaApi.post(`/payouts/${of('marco')}/paid`, { externalReference: 'SEPA-2026-1187' }), 'marco paid');
  ok(await anaApi.post(`/payouts/${of('tom')}/failed`, { reason: 'Account closed: asked Tom for new bank details' }), 'tom failed');
  ids.alicePayout = of('alice');
}

// Each page waits for its data while the rest of the suite loads the same two
// cores (a kill test, the fuzzer): the overview once took longer than 15 s.
const expect = browserExpect.configure({ timeout: 45_000 });
jest.setTimeout(120_000);

describe('screenshots of every page of the dashboard', () => {
  let browser: Browser;
  let shop: TestApp;
  let ana: TestOperator;
  let page: Page;
  const ids: Record<string, string> = {};
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    mkdirSync(outDir, { recursive: true });
    browser = await launchChromium();
    receiver = await WebhookReceiver.start();
    // The CRM is down for its first request: its delivery log shows a retry.
    receiver.respond('/crm', (request) => (request.n === 1 ? { status: 503, body: 'Service Unavailable' } : { status: 200, body: 'ok' }));

    shop = await createTestApp('Acme Shop');
    const blog = await createTestApp('Acme Blog');
    // Fixed addresses: this stack's gateway is new, and no other test uses them.
    ana = await createOperator({ email: 'ana@acme.example' });
    await addMember(shop.appId, ana.id, 'OWNER');
    const asAna = await OperatorSession.signIn(ana.email, ana.password);
    const anaApi = asAna.api(shop.appId);
    const consoleApi = asAna.console;

    // The team, invited from the dashboard's console: Ben accepts through his link with a password of his choosing; Cara's invitation waits.
    const ben = ok(await consoleApi.post(`/apps/${shop.appId}/members`, { email: 'ben@acme.example', role: 'MANAGER' }), 'invite ben');
    ok(await consoleApi.post(`/apps/${shop.appId}/members`, { email: 'cara@acme.example', role: 'VIEWER' }), 'invite cara');
    const benToken = new URL(ben.inviteUrl).pathname.split('/').at(-1);
    ok(await new ApiClient(`${asAna.gatewayUrl}/console/v1`).post(`/invitations/${benToken}/accept`, { password: 'ben chose this one' }), 'ben accepts');

    // Campaigns, made by Ana with her session (so the audit log has them): a commission on every purchase for a year.
    const spring = ok(
      await anaApi.post('/campaigns', {
        name: 'Spring referral program',
        referrerReward: { percent: 10, maxAmount: 25, fulfillmentType: 'DISCOUNT_CODE' },
        refereeReward: { amount: 5, fulfillmentType: 'COUPON_CODE' },
        levels: [{ level: 2, amount: 3 }],
        maxRewardsPerReferrer: 20,
        recurringMonths: 12,
      }),
      'spring',
    ).campaign;
    ids.spring = spring.id;
    // One campaign scheduled (it starts in a month) and one ended by its schedule: the list shows both by themselves.
    const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString();
    ok(
      await anaApi.post('/campaigns', { name: 'Partner launch', startsAt: inAMonth, holdDays: 30, referrerReward: { percent: 5, maxAmount: 50, fulfillmentType: 'GIFT_CARD' } }),
      'partner',
    );
    const winter = ok(await anaApi.post('/campaigns', { name: 'Winter promo', referrerReward: { amount: 8, fulfillmentType: 'COUPON_CODE' } }), 'winter').campaign;
    ok(await anaApi.patch(`/campaigns/${winter.id}`, { endsAt: new Date(Date.now() - 86_400_000).toISOString() }), 'winter ended');
    const hook = ok(
      await anaApi.post('/webhooks', { url: receiver.url('/crm'), description: 'CRM sync', events: ['CONVERSION_CREATED', 'REWARD_CANCELLED'] }),
      'webhook',
    ).webhook;
    ids.webhook = hook.id;
    ok(await anaApi.post('/incentives/actions', { key: 'first_purchase', name: 'First purchase', type: 'STANDARD', coins: 50, xp: 120 }), 'action');

    // What the shop's backend sends with its API key: referrals, clicks, conversions.
    const api = shop.api;
    const code = async (referrerId: string, context: Record<string, unknown> = {}) =>
      ok(await api.post('/referrals', { campaignId: spring.id, referrerId, ...context }), `referral of ${referrerId}`).referralCode as string;
    const click = async (referralCode: string, fields: Record<string, unknown> = {}) => ok(await api.post('/clicks', { referralCode, ...fields }), 'click');
    const convert = async (referralCode: string, refereeId: string, fields: Record<string, unknown> = {}) =>
      ok(await api.post('/conversions', { referralCode, refereeId, ...fields }), `conversion of ${refereeId}`);

    const alice = await code('alice');
    const bruno = await code('bruno');
    const chloe = await code('chloe');
    for (const visitor of ['emma', 'farid', 'nora', 'omar', 'pia', 'quinn']) await click(alice, { refereeId: visitor });
    for (const visitor of ['hana', 'kim', 'rui', 'sven']) await click(bruno, { refereeId: visitor });
    for (const visitor of ['tess', 'ugo', 'vera']) await click(chloe, { refereeId: visitor });
    const emmaConversion = await convert(alice, 'emma', { amount: 80 });
    await convert(alice, 'farid', { amount: 120 });
    await convert(bruno, 'hana', { amount: 45 });
    // Emma refers Gwen: Alice earns at level 2.
    const emma = await code('emma');
    await click(emma, { refereeId: 'gwen' });
    ids.gwenConversion = (await convert(emma, 'gwen', { amount: 60 })).conversionId;

    // Held for review: the referrer's own device and address with an alias of his email; a throw-away address seconds after its click; a self-referral.
    const ivan = await code('ivan', { ip: '198.51.100.23', deviceId: 'dev-5c1e', email: 'ivan@example.com', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/141.0' });
    await click(ivan, { refereeId: 'ivan2', ip: '198.51.100.23', deviceId: 'dev-5c1e' });
    ids.ivanFlagConversion = (await convert(ivan, 'ivan2', { amount: 95, ip: '198.51.100.23', deviceId: 'dev-5c1e', email: 'i.van+2@example.com' })).conversionId;
    await convert(bruno, 'kim', { amount: 30, email: 'kim@mailinator.com', ip: '203.0.113.77' });
    await convert(await code('jules'), 'jules', { amount: 50 });
    await convert(await code('leo'), 'leo', { amount: 70 });

    // Ben, a MANAGER, rejects one flag from his session.
    const flags = ok(await api.get('/fraud/flags?status=OPEN&limit=100'), 'flags').flags;
    const leoFlag = flags.find((f: any) => f.referrerId === 'leo');
    const ivanFlag = flags.find((f: any) => f.conversionId === ids.ivanFlagConversion);
    ids.ivanFlag = ivanFlag.id;
    const asBen = await OperatorSession.signIn('ben@acme.example', 'ben chose this one');
    ok(await asBen.api(shop.appId).post(`/fraud/flags/${leoFlag.id}/resolve`, { decision: 'REJECT', note: 'Same household, confirmed with support' }), 'reject leo');

    // Alice's rewards: one claimed and paid.
    const aliceRewards = ok(await api.get('/rewards?userId=alice&limit=100'), 'alice rewards').rewards;
    const first = aliceRewards.find((r: any) => r.conversionId === emmaConversion.conversionId);
    ids.aliceReward = first.id;
    ok(await api.post(`/rewards/${first.id}/claim`), 'claim');
    ok(await api.post('/rewards/redeem', { rewardId: first.id, userId: 'alice' }), 'redeem');
    ok(await api.post('/incentives/events', { userId: 'alice', actionKey: 'first_purchase' }), 'incentive event');

    // Gwen buys again (the campaign is recurring), then returns part of her first order: Ana records the refund from her
    // session (so the audit log has it). Emma's chargeback comes after Alice was paid: Alice owes back what she no longer earns.
    ok(await api.post(`/conversions/${ids.gwenConversion}/purchases`, { amount: 40, externalId: 'INV-2041' }), 'gwen buys again');
    ok(await anaApi.post(`/conversions/${ids.gwenConversion}/reversals`, { reason: 'REFUND', amount: 20, note: 'One of three items returned' }), 'gwen refund');
    ok(await anaApi.post(`/conversions/${emmaConversion.conversionId}/reversals`, { reason: 'CHARGEBACK', amount: 20, note: 'Card dispute, lost' }), 'emma chargeback');

    // A key for staging, issued and revoked; the backend's key has been used.
    const staging = ok(await consoleApi.post(`/apps/${shop.appId}/keys`), 'staging key').key;
    ok(await consoleApi.request('DELETE', `/apps/${shop.appId}/keys/${staging.id}`), 'revoke staging');

    await seedIncentives(shop, blog, anaApi);
    await seedPayoutsAndStripe(shop, anaApi, ids);

    await seedHistory(shop.appId, spring.id);
    // Every delivery of the CRM endpoint done (its first after a retry).
    const deliveries = await eventually(
      async () => ok(await api.get(`/webhooks/${hook.id}/deliveries?limit=100`), 'deliveries').deliveries as any[],
      (list) => list.length > 0 && list.every((d) => d.status === 'SUCCEEDED'),
    );
    ids.retriedDelivery = deliveries.find((d) => d.attempts > 1).id;

    page = await newDashboardPage(browser, DESKTOP);
    // A whole shop's worth of requests: more than one test's time on a busy machine.
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  const url = (path: string) => `/dashboard/apps/${shop.appId}/${path}`;

  /**
   * Waits for what shows the page is loaded, then takes it: the whole page
   * (the window made as tall as the page, so the side navigation reaches its
   * foot), or, with a drawer or dialog open over it, the window as it is.
   */
  async function shoot(name: string, loaded: Locator[], { target = page, whole = true }: { target?: Page; whole?: boolean } = {}): Promise<void> {
    for (const locator of loaded) await expect(locator).toBeVisible();
    await expect(target.locator('[aria-busy="true"]')).toHaveCount(0);
    const size = target.viewportSize() ?? DESKTOP;
    const height = whole ? Number(await target.evaluate('document.documentElement.scrollHeight')) : size.height;
    if (height > size.height) await target.setViewportSize({ width: size.width, height });
    await target.screenshot({ path: join(outDir, `${name}.png`), animations: 'disabled' });
    await target.setViewportSize(size);
  }

  it('sign-in', async () => {
    const signInPage = await newDashboardPage(browser, DESKTOP);
    await signInPage.goto('/dashboard/sign-in');
    await signInPage.getByRole('textbox', { name: 'Email' }).fill('ana@acme.example');
    await shoot('sign-in', [signInPage.getByRole('heading', { name: 'Sign in' })], { target: signInPage });
    await signInPage.context().close();
    await signIn(page, ana.email, ana.password);
  });

  it('overview', async () => {
    await page.goto(url(`overview?campaignId=${ids.spring}`));
    await expect(page.getByRole('main').getByLabel('Clicks', { exact: true })).not.toHaveText('0');
    await expect(page.locator('.recharts-line-curve')).toHaveCount(4);
    await expect(page.getByRole('main').getByLabel('Reversals', { exact: true })).not.toHaveText('0');
    // The browser asks for reduced motion (support/browser.ts): the charts are drawn at once (useChartMotion).
    await shoot('overview', [page.getByRole('heading', { name: 'Referrals, clicks, conversions and reversals per day' })]);
  });

  it('overview of every campaign, with the top referrers', async () => {
    await page.goto(url('overview?campaignId=all'));
    await expect(page.getByRole('table', { name: 'Top referrers' })).toBeVisible();
    await expect(page.getByRole('table', { name: "Campaigns' figures" }).getByText('Spring referral program')).toBeVisible();
    await shoot('overview-all', [page.getByRole('table', { name: 'Top referrers' }).getByRole('link').first()]);
  });

  it('overview at phone width', async () => {
    const phone = await newDashboardPage(browser, PHONE);
    await signIn(phone, ana.email, ana.password);
    await phone.goto(url(`overview?campaignId=${ids.spring}&days=7`));
    await expect(phone.locator('.recharts-line-curve')).toHaveCount(4);
    await shoot('overview-phone', [phone.getByRole('main').getByLabel('Conversion rate', { exact: true })], { target: phone });
    await phone.context().close();
  });

  it('campaigns', async () => {
    await page.goto(url('campaigns'));
    await shoot('campaigns', [page.getByRole('link', { name: 'Spring referral program' }), page.getByRole('link', { name: 'Winter promo' })]);
  });

  it('campaign settings', async () => {
    await page.goto(url(`campaigns/${ids.spring}`));
    await expect(page.getByRole('textbox', { name: 'Name' })).toHaveValue('Spring referral program');
    await shoot('campaign-edit', [page.getByRole('button', { name: 'Save changes' })]);
  });

  it('referrals and conversions, with a conversion’s levels, purchases and reversals, and its reverse form', async () => {
    await page.goto(url(`referrals?campaignId=${ids.spring}`));
    await shoot('referrals', [page.getByRole('link', { name: 'alice' }), page.getByRole('link', { name: 'emma' })]);
    await page.goto(url(`referrals?tab=conversions&campaignId=${ids.spring}&conversion=${ids.gwenConversion}&referee=gwen`));
    const drawer = page.getByRole('dialog', { name: 'Conversion' });
    // The drawer's whole height: its levels, purchases and reversals.
    await page.setViewportSize({ width: DESKTOP.width, height: 1000 });
    await shoot('conversion', [drawer.getByText('Level 2: alice'), drawer.getByText('INV-2041'), drawer.getByText('One of three items returned')], { whole: false });
    await drawer.getByRole('button', { name: 'Reverse' }).click();
    const form = page.getByRole('dialog', { name: 'Reverse a sale' });
    await form.getByRole('combobox', { name: 'Sale' }).click();
    await page.getByRole('option', { name: /^Purchase INV-2041/ }).click();
    await form.getByText('Partial', { exact: true }).click();
    await form.getByRole('textbox', { name: 'Amount' }).fill('15');
    await form.getByRole('combobox', { name: 'Reason' }).click();
    await page.getByRole('option', { name: 'Refund' }).click();
    await form.getByRole('textbox', { name: 'Note' }).fill('Renewal refunded after a support call');
    await shoot('conversion-reverse', [form.getByText('At most $40.00: what is left of the sale')], { whole: false });
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize(DESKTOP);
  });

  it('fraud review, with a flag’s evidence', async () => {
    await page.goto(url('fraud'));
    await shoot('fraud-review', [page.getByTestId('flag-row').nth(2)]);
    await page.goto(url(`fraud?flag=${ids.ivanFlag}`));
    const drawer = page.getByRole('dialog', { name: 'Flag evidence' });
    await shoot('fraud-evidence', [drawer.getByText('dev-5c1e').first(), drawer.getByText(/^Linked records/)], { whole: false });
    await page.goto(url('fraud?status=REJECTED'));
    await shoot('fraud-decided', [page.getByText('by ben@acme.example', { exact: false })]);
  });

  it('rewards, with one reward’s history', async () => {
    await page.goto(url('rewards'));
    await shoot('rewards', [page.getByRole('table')]);
    await page.goto(url(`rewards?reward=${ids.aliceReward}`));
    await shoot('reward-history', [page.getByRole('dialog', { name: 'Reward' }).getByText('approved → paid')], { whole: false });
  });

  it('payouts, with one payout’s rewards and clawbacks', async () => {
    await page.goto(url('payouts?minimumAmount=10'));
    await shoot('payouts', [
      page.getByRole('table', { name: 'Due now' }).getByText('below the minimum'),
      page.getByRole('table', { name: 'Payouts', exact: true }).getByText('SEPA-2026-1187', { exact: false }),
    ]);
    await page.goto(url(`payouts?payout=${ids.alicePayout}`));
    const drawer = page.getByRole('dialog', { name: 'Payout' });
    await shoot('payout', [drawer.getByRole('table', { name: 'Clawbacks it deducts' }), drawer.getByRole('button', { name: 'Mark paid' })], { whole: false });
  });

  it('participants', async () => {
    await page.goto(url('participants?sort=CONVERSIONS'));
    await shoot('participants', [page.getByRole('table', { name: 'Participants' }).getByRole('link', { name: 'alice' }).first()]);
  });

  it('users', async () => {
    await page.goto(url('users?userId=alice'));
    await shoot('users', [
      page.getByRole('heading', { name: 'Balances' }),
      page.getByTestId('ledger-row').first(),
      page.getByRole('main').getByLabel('Rank all time'),
      page.getByRole('region', { name: 'Owes back $2.00' }),
    ]);
  });

  it('the incentive engine: actions, events, levels, badges, catalog, marketplace, leaderboard', async () => {
    await page.goto(url('actions'));
    await shoot('actions', [page.getByRole('table', { name: 'Actions' }).getByText('Friend converted')]);
    await page.goto(url('actions?action=first_purchase&days=7'));
    const drawer = page.getByRole('dialog', { name: 'Action' });
    await expect(drawer.getByLabel('Events', { exact: true })).not.toHaveText('0');
    await shoot('action-activity', [drawer.getByText('Paid out per day'), drawer.locator('.recharts-line-curve').first()], { whole: false });
    await page.goto(url('events'));
    await shoot('events', [page.getByRole('table', { name: 'Events' }).getByText('nothing: the action is disabled')]);
    await page.goto(url('progression'));
    await shoot('levels', [page.getByRole('table', { name: 'Levels' }).getByText('Gold', { exact: true })]);
    await page.goto(url('progression?tab=badges'));
    await shoot('badges', [page.getByRole('table', { name: 'Badges' }).getByText('Early bird')]);
    await page.goto(url('progression?tab=streaks'));
    await shoot('streaks', [page.getByRole('table', { name: 'Streaks' }).getByText('Daily visit')]);
    await page.goto(url('boosts'));
    await shoot('boosts', [page.getByRole('table', { name: 'Boosts' }).getByText('Double weekend')]);
    await page.goto(url('users?userId=alice&tab=streaks'));
    await shoot('user-streaks', [page.getByRole('table', { name: 'Streaks' }).getByText('Daily visit')]);
    await page.goto(url('catalog'));
    await shoot('catalog', [page.getByRole('table', { name: 'Catalog items' }).getByText('VIP lounge pass')]);
    await page.goto(url('catalog?tab=redemptions'));
    await shoot('catalog-redemptions', [page.getByRole('table', { name: 'Redemptions' }).getByText('cancelled')]);
    await page.goto(url('marketplace'));
    await shoot('marketplace', [page.getByRole('table', { name: 'Listings' }).getByText('5 off a gift card')]);
    await page.goto(url('marketplace?tab=settlements'));
    await shoot('marketplace-settlements', [page.getByRole('table', { name: 'Settlements per partner app and listing' })]);
    await page.goto(url('leaderboard?userId=farid'));
    await shoot('leaderboard', [page.getByRole('table', { name: 'Leaderboard, all time' }), page.getByRole('status')]);
  });

  it('a user at phone width', async () => {
    const phone = await newDashboardPage(browser, PHONE);
    await signIn(phone, ana.email, ana.password);
    await phone.goto(url('users?userId=alice'));
    await shoot('users-phone', [phone.getByTestId('ledger-row').first()], { target: phone });
    await phone.context().close();
  });

  it('developers: API keys, webhooks, an endpoint’s delivery log and a delivery’s attempts', async () => {
    await page.goto(url('developers'));
    await shoot('developers-keys', [page.getByText('revoked', { exact: false })]);
    await page.goto(url('developers?tab=webhooks'));
    await shoot('developers-webhooks', [page.getByRole('link', { name: receiver.url('/crm') })]);
    await page.goto(url(`developers/webhooks/${ids.webhook}`));
    await shoot('webhook-endpoint', [page.getByRole('heading', { name: 'Delivery log' }), page.getByText('succeeded').first()]);
    await page.goto(url(`developers/webhooks/${ids.webhook}?delivery=${ids.retriedDelivery}`));
    await shoot('webhook-delivery', [page.getByRole('dialog', { name: 'Delivery' }).getByText('503')], { whole: false });
  });

  it('integrations: Stripe connected, with the events it sent', async () => {
    await page.goto(url('integrations'));
    await shoot('integrations', [page.getByLabel('Endpoint URL', { exact: true }), page.getByTestId('stripe-event').filter({ hasText: 'unmatched' })]);
  });

  it('members', async () => {
    await page.goto(url('members'));
    await shoot('members', [page.getByText('cara@acme.example')]);
  });

  it('audit log', async () => {
    await page.goto(url('audit'));
    await shoot('audit-log', [page.getByText('ben@acme.example').first()]);
    expectCleanConsole(page);
  });
});
