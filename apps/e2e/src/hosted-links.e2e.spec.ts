import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { Webhook } from 'standardwebhooks';
import { WebhookReceiver, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { createCampaign, createReferral } from './support/referral-scenario';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const LANDING = 'https://shop.example.com/welcome?lang=en#top';

/** Follows a hosted link as a browser would, but stops at the redirect (fetch with redirect: 'manual'). */
async function visit(path: string, headers: Record<string, string> = { 'user-agent': BROWSER }, method = 'GET') {
  const res = await fetch(`${e2eStack().gatewayUrl}${path}`, { method, headers, redirect: 'manual' });
  return { status: res.status, location: res.headers.get('location'), cookie: res.headers.get('set-cookie'), type: res.headers.get('content-type'), res };
}

describe('hosted referral links (GET /r/{code})', () => {
  let app: TestApp;
  let campaign: any;

  const clicksOf = async (campaignId: string) => (await app.api.get(`/stats?campaignId=${campaignId}`)).body.totalClicks as number;

  beforeAll(async () => {
    app = await createTestApp('hosted links');
    campaign = await createCampaign(app, { name: 'Linked', landingUrl: LANDING });
  });

  it('campaigns keep a validated landing URL, which PATCH changes and null removes', async () => {
    expect(campaign.landingUrl).toBe(LANDING);
    for (const bad of ['ftp://shop.example.com/', 'javascript:alert(1)', '/relative', 'https://user:pw@shop.example.com/']) {
      const res = await app.api.post('/campaigns', { name: 'Bad', referrerReward: { amount: 1, fulfillmentType: 'CUSTOM' }, landingUrl: bad });
      expect([bad, res.status, res.body.error.code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
    }
    const other = await createCampaign(app, { name: 'Changing' });
    expect(other.landingUrl).toBeNull();
    const set = await app.api.patch(`/campaigns/${other.id}`, { landingUrl: 'http://localhost:3000/join' });
    expect(set.body.campaign.landingUrl).toBe('http://localhost:3000/join');
    const cleared = await app.api.patch(`/campaigns/${other.id}`, { landingUrl: null });
    expect(cleared.body.campaign.landingUrl).toBeNull();
  });

  it('sends a browser to the landing URL with ref and UTM parameters, sets a device cookie, and counts the click like POST /clicks', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const hook = await app.api.post('/webhooks', { url: receiver.url('/clicks'), events: ['REFERRAL_CLICKED'] });
      expect(hook.status).toBe(201);
      const { referralCode } = await createReferral(app, campaign.id, 'ann');
      const before = await clicksOf(campaign.id);

      // Typed in lower case, with UTM parameters and one that is not passed on.
      const first = await visit(`/r/${referralCode.toLowerCase()}?utm_source=newsletter&utm_medium=email&utm_campaign=spring&gclid=x`);
      expect(first.status).toBe(302);
      const landed = new URL(first.location!);
      expect(`${landed.origin}${landed.pathname}${landed.hash}`).toBe('https://shop.example.com/welcome#top');
      expect(Object.fromEntries(landed.searchParams)).toEqual({
        lang: 'en',
        ref: referralCode,
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'spring',
      });
      expect(first.res.headers.get('cache-control')).toBe('no-store');
      const device = /ris_device=(dev_[A-Za-z0-9]{22});/.exec(first.cookie ?? '')?.[1];
      expect(first.cookie).toMatch(/Path=\/r; .*HttpOnly; SameSite=Lax/);
      expect(device).toBeDefined();

      // The same browser again: its cookie is kept, and the click counts.
      const second = await visit(`/r/${referralCode}`, { 'user-agent': BROWSER, cookie: `ris_device=${device}` });
      expect(second.status).toBe(302);
      expect(second.cookie).toBeNull();
      expect(new URL(second.location!).searchParams.get('ref')).toBe(referralCode);

      expect(await clicksOf(campaign.id)).toBe(before + 2);
      const stats = await app.api.get(`/users/ann/stats?campaignId=${campaign.id}`);
      expect(stats.body.clicks).toBe(2);
      // The same event and webhook as a click of POST /clicks.
      const deliveries = await receiver.waitFor((r) => r.path === '/clicks', 2);
      const verified = deliveries.map((d) => new Webhook(hook.body.secret).verify(d.body, d.headers) as any);
      expect(verified.map((v) => [v.event, v.data.referralCode])).toEqual([
        ['REFERRAL_CLICKED', referralCode],
        ['REFERRAL_CLICKED', referralCode],
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('sends crawlers, unfurlers, HEAD requests and prefetches on without counting them', async () => {
    const { referralCode } = await createReferral(app, campaign.id, 'bob');
    const before = await clicksOf(campaign.id);
    const agents = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
      'curl/8.5.0',
    ];
    for (const agent of agents) {
      const res = await visit(`/r/${referralCode}?utm_source=x`, { 'user-agent': agent });
      expect([agent, res.status, new URL(res.location!).searchParams.get('ref'), res.cookie]).toEqual([agent, 302, referralCode, null]);
    }
    const head = await visit(`/r/${referralCode}`, { 'user-agent': BROWSER }, 'HEAD');
    expect([head.status, head.cookie]).toEqual([302, null]);
    const prefetch = await visit(`/r/${referralCode}`, { 'user-agent': BROWSER, 'sec-purpose': 'prefetch' });
    expect(prefetch.status).toBe(302);
    const anonymous = await visit(`/r/${referralCode}`, { 'user-agent': '' });
    expect(anonymous.status).toBe(302);
    expect(await clicksOf(campaign.id)).toBe(before);
  });

  it('counts at most LINK_CLICKS_PER_IP_PER_HOUR (10) clicks of one address on one link, and sends every visit on', async () => {
    const { referralCode } = await createReferral(app, campaign.id, 'cid');
    const before = await clicksOf(campaign.id);
    for (let i = 0; i < 13; i += 1) expect((await visit(`/r/${referralCode}`)).status).toBe(302);
    expect(await clicksOf(campaign.id)).toBe(before + 10);
  });

  it('answers a plain 404 page for an unknown code and for a campaign without a landing URL; an inactive campaign redirects without a click', async () => {
    const unknown = await visit('/r/NO-SUCH-CODE');
    expect([unknown.status, unknown.type]).toEqual([404, 'text/html; charset=utf-8']);
    expect(await unknown.res.text()).toContain('does not exist');
    expect(unknown.res.headers.get('content-security-policy')).toContain("default-src 'none'");

    const bare = await createCampaign(app, { name: 'No landing' });
    const { referralCode: bareCode } = await createReferral(app, bare.id, 'dee');
    const nowhere = await visit(`/r/${bareCode}`);
    expect(nowhere.status).toBe(404);
    expect(await nowhere.res.text()).toContain('no page to lead to');
    expect(await clicksOf(bare.id)).toBe(0);

    const paused = await createCampaign(app, { name: 'Paused', landingUrl: 'https://shop.example.com/paused' });
    const { referralCode: pausedCode } = await createReferral(app, paused.id, 'eve');
    expect((await app.api.patch(`/campaigns/${paused.id}`, { status: 'PAUSED' })).status).toBe(200);
    const res = await visit(`/r/${pausedCode}`);
    expect([res.status, new URL(res.location!).searchParams.get('ref'), res.cookie]).toEqual([302, pausedCode, null]);
    expect(await clicksOf(paused.id)).toBe(0);
  });

  it('gives the link as a QR code that decodes back to it (PNG) and as SVG; 404 for an unknown code', async () => {
    const { referralCode } = await createReferral(app, campaign.id, 'fay');
    const png = await fetch(`${e2eStack().gatewayUrl}/r/${referralCode.toLowerCase()}/qr.png?size=300`);
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    const image = PNG.sync.read(Buffer.from(await png.arrayBuffer()));
    expect(image.width).toBe(300);
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(decoded?.data).toBe(`${e2eStack().gatewayUrl}/r/${referralCode}`);
    // And the decoded link is the hosted link itself.
    expect((await visit(new URL(decoded!.data).pathname)).status).toBe(302);

    const svg = await fetch(`${e2eStack().gatewayUrl}/r/${referralCode}/qr.svg`);
    expect([svg.status, svg.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);
    expect(await svg.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

    const missing = await fetch(`${e2eStack().gatewayUrl}/r/NO-SUCH-CODE/qr.svg`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe('NOT_FOUND');
  });

  it('takes no credentials and is in the OpenAPI document as public, under Hosted links', async () => {
    const document = (await (await fetch(`${e2eStack().gatewayUrl}/api/v1/openapi.json`)).json()) as any;
    for (const path of ['/r/{code}', '/r/{code}/qr.svg', '/r/{code}/qr.png']) {
      expect([path, document.paths[path].get.security, document.paths[path].get.tags]).toEqual([path, [], ['Hosted links']]);
    }
    const post = await fetch(`${e2eStack().gatewayUrl}/r/ANY`, { method: 'POST' });
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD, OPTIONS']);
  });
});
