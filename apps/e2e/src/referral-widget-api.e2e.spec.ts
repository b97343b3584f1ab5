import { newKeyringEntry } from '@ris/secrets';
import { ApiClient, createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { signEmbedToken, stackSecretsKeys } from './support/embed-token-signer';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

/** The widget's read endpoints, with an embed token (or whatever else a test sends as one). */
const widget = (token?: string) => new ApiClient(`${e2eStack().gatewayUrl}/embed/v1`, token);

describe('the referral widget: embed tokens and /embed/v1', () => {
  let app: TestApp;
  let other: TestApp;
  let campaign: any;
  let ann: any;

  beforeAll(async () => {
    [app, other] = await Promise.all([createTestApp('widget'), createTestApp('widget other')]);
    campaign = await createCampaign(app, { name: 'Spring invites', landingUrl: 'https://shop.example.com/join' });
    ann = await createReferral(app, campaign.id, 'ann');
  });

  async function tokenOf(target: TestApp, body: Record<string, unknown>): Promise<any> {
    const res = await target.api.post('/embed-tokens', body);
    expect([res.status, res.body.error]).toEqual([201, undefined]);
    return res.body;
  }

  it('issues a short-lived token for a user with a referral in the campaign, 404 REFERRAL_NOT_FOUND otherwise', async () => {
    const issued = await tokenOf(app, { userId: 'ann', campaignId: campaign.id, allowedOrigins: ['https://Shop.Example.com'], expiresInMinutes: 5 });
    expect(issued.token).toMatch(/^et1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const minutes = (Date.parse(issued.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(4);
    expect(minutes).toBeLessThanOrEqual(5);
    expect(issued.widgetUrl).toBe(`${e2eStack().gatewayUrl}/embed/referrals?token=${encodeURIComponent(issued.token)}`);

    const nobody = await app.api.post('/embed-tokens', { userId: 'nobody', campaignId: campaign.id });
    expect([nobody.status, nobody.body.error.code]).toEqual([404, 'REFERRAL_NOT_FOUND']);
    // Another app's campaign is as unknown as one that does not exist.
    const foreign = await other.api.post('/embed-tokens', { userId: 'ann', campaignId: campaign.id });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'REFERRAL_NOT_FOUND']);
    for (const body of [
      { userId: 'ann', campaignId: campaign.id, allowedOrigins: ['https://shop.example.com/path'] },
      { userId: 'ann', campaignId: campaign.id, expiresInMinutes: 61 },
    ]) {
      expect((await app.api.post('/embed-tokens', body)).status).toBe(400);
    }
  });

  it("shows the token's user their link, QR code, clicks, friends (shortened) and rewards with codes, and nothing of another user", async () => {
    await app.api.post('/clicks', { referralCode: ann.referralCode, refereeId: 'bob@example.com' });
    const carla = await convert(app, ann.referralCode, 'carla@example.com', { amount: 40 });
    const rewardId = carla.rewards.find((r: any) => r.userId === 'ann').rewardId;
    const claimed = await app.api.post(`/rewards/${rewardId}/claim`);
    expect(claimed.status).toBe(200);
    // Another referrer of the campaign, with a friend of their own.
    const dan = await createReferral(app, campaign.id, 'dan');
    await convert(app, dan.referralCode, 'erin@example.com');

    const { token } = await tokenOf(app, { userId: 'ann', campaignId: campaign.id });
    const res = await widget(token).get('/referral');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const link = `${e2eStack().gatewayUrl}/r/${ann.referralCode}`;
    expect(res.body).toEqual({
      user: { id: 'ann' },
      campaign: { id: campaign.id, name: 'Spring invites', status: 'ACTIVE' },
      referral: { code: ann.referralCode, link, qrCodeSvg: `${link}/qr.svg`, createdAt: expect.any(String) },
      stats: { clicks: 1, friendsJoined: 2, friendsConverted: 1 },
      friends: expect.arrayContaining([
        { label: 'bo•••om', status: 'JOINED', joinedAt: expect.any(String), convertedAt: null },
        { label: 'ca•••om', status: 'CONVERTED', joinedAt: expect.any(String), convertedAt: expect.any(String) },
      ]),
      rewards: [
        {
          id: rewardId,
          amount: 10,
          currency: 'USD',
          fulfillmentType: 'DISCOUNT_CODE',
          status: 'APPROVED',
          discountCode: claimed.body.discountCode,
          expiresAt: expect.any(String),
          // Neither held (the campaign has no holding period) nor reversed.
          availableAt: null,
          reversedAmount: 0,
          reversalReason: null,
          createdAt: expect.any(String),
        },
      ],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/dan|erin|bob@|carla@/);
  });

  it('is refused everywhere else, and /embed/v1 takes nothing but an embed token', async () => {
    const { token } = await tokenOf(app, { userId: 'ann', campaignId: campaign.id });
    const gateway = e2eStack().gatewayUrl;
    // The token is no API key, admin token or session.
    for (const [base, path] of [
      ['/api/v1', '/campaigns'],
      ['/api/v1', `/referrals/${ann.referralCode}`],
      ['/api/v1', '/rewards?userId=ann'],
      ['/admin/v1', `/apps/${app.appId}`],
      ['/console/v1', '/session'],
    ]) {
      const res = await new ApiClient(`${gateway}${base}`, token).get(path);
      expect([base + path, res.status]).toEqual([base + path, 401]);
    }
    const post = await new ApiClient(`${gateway}/api/v1`, token).post('/embed-tokens', { userId: 'mallory', campaignId: campaign.id });
    expect(post.status).toBe(401);

    // The app's API key, the admin token, nothing: refused by the widget's endpoints.
    for (const credential of [app.apiKey, e2eStack().adminToken, undefined]) {
      const res = await widget(credential).get('/referral');
      expect([res.status, res.body.error.code]).toEqual([401, 'UNAUTHENTICATED']);
    }
    // An altered token (another user), one of another deployment, an expired one.
    const [, body, mac] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const altered = `et1.${Buffer.from(JSON.stringify({ ...claims, u: 'dan' })).toString('base64url')}.${mac}`;
    const claimsOfAnn = { appId: app.appId, userId: 'ann', campaignId: campaign.id };
    const foreign = signEmbedToken(newKeyringEntry(claims.k), { ...claimsOfAnn, expiresAt: new Date(Date.now() + 60_000) });
    const expired = signEmbedToken(stackSecretsKeys(), { ...claimsOfAnn, expiresAt: new Date(Date.now() - 1000) });
    for (const [name, bad, code] of [
      ['altered', altered, 'EMBED_TOKEN_INVALID'],
      ['foreign', foreign, 'EMBED_TOKEN_INVALID'],
      ['expired', expired, 'EMBED_TOKEN_EXPIRED'],
    ]) {
      const res = await widget(bad).get('/referral');
      expect([name, res.status, res.body.error.code]).toEqual([name, 401, code]);
    }
    // The same signer with a future expiry is accepted: the refusals above are about what they say.
    const fresh = signEmbedToken(stackSecretsKeys(), { ...claimsOfAnn, expiresAt: new Date(Date.now() + 60_000) });
    expect((await widget(fresh).get('/referral')).status).toBe(200);
  });

  it('serves the widget page framable only by the allowed origins, without a referrer, and the loader script', async () => {
    const { token } = await tokenOf(app, { userId: 'ann', campaignId: campaign.id, allowedOrigins: ['https://shop.example.com', 'http://localhost:3000'] });
    const page = await fetch(`${e2eStack().gatewayUrl}/embed/referrals?token=${encodeURIComponent(token)}`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("frame-ancestors 'self' https://shop.example.com http://localhost:3000");
    expect(csp).toContain("script-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain('/embed/assets/widget.js');

    const noOrigins = await tokenOf(app, { userId: 'ann', campaignId: campaign.id });
    const own = await fetch(`${e2eStack().gatewayUrl}/embed/referrals?token=${encodeURIComponent(noOrigins.token)}`);
    expect(own.headers.get('content-security-policy')).toContain("frame-ancestors 'self';");
    // A token that is not ours lets the page show only an error: framable anywhere, so the embedding page shows it.
    const bad = await fetch(`${e2eStack().gatewayUrl}/embed/referrals?token=et1.x.y`);
    expect(bad.headers.get('content-security-policy')).toContain('frame-ancestors *;');

    for (const [path, type] of [
      ['/embed/loader.js', 'text/javascript'],
      ['/embed/assets/widget.js', 'text/javascript'],
      ['/embed/assets/widget.css', 'text/css'],
    ]) {
      const res = await fetch(`${e2eStack().gatewayUrl}${path}`);
      expect([path, res.status, res.headers.get('content-type')?.split(';')[0]]).toEqual([path, 200, type]);
    }
    expect((await fetch(`${e2eStack().gatewayUrl}/embed/nothing.js`)).status).toBe(404);
  });

  it('replays a token for a retried POST with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `widget-${Date.now()}` };
    const body = { userId: 'ann', campaignId: campaign.id };
    const first = await app.api.post('/embed-tokens', body, headers);
    const again = await app.api.post('/embed-tokens', body, headers);
    expect([first.status, again.status, again.headers.get('idempotent-replayed')]).toEqual([201, 201, 'true']);
    expect(again.body.token).toBe(first.body.token);
  });
});
