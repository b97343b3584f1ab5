import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect as pw, type Browser, type FrameLocator, type Page } from '@playwright/test';
import { createTestApp, e2eStack, type TestApp } from '@ris/testing';
import { launchChromium } from './support/browser';
import { EmbeddingPage, shopPage } from './support/embedding-page';
import { signEmbedToken, stackSecretsKeys } from './support/embed-token-signer';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

/*
 * The referral widget in a real browser: Playwright driving Debian's
 * Chromium (never a downloaded browser; CHROMIUM names another binary),
 * a shop's page on its own origin embedding the widget with the script
 * tag. Screenshots go to .run/e2e-widget/ (docs/images/ keeps copies).
 */
const shots = join(__dirname, '..', '..', '..', '.run', 'e2e-widget');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1100, height: 900 };

describe('the referral widget in Chromium', () => {
  let browser: Browser;
  let site: EmbeddingPage;
  let app: TestApp;
  let campaign: { id: string };
  let code: string;
  let discountCode: string;

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [browser, site, app] = await Promise.all([launchChromium(), EmbeddingPage.start(), createTestApp('widget browser')]);
    campaign = await createCampaign(app, { name: 'Spring invites', landingUrl: 'https://shop.example.com/join' });
    code = (await createReferral(app, campaign.id, 'ann')).referralCode;
    await app.api.post('/clicks', { referralCode: code, refereeId: 'bob.smith@example.com' });
    const carla = await convert(app, code, 'carla.jones@example.com', { amount: 60 });
    const claimed = await app.api.post(`/rewards/${carla.rewards[0].rewardId}/claim`);
    discountCode = claimed.body.discountCode;
    // A holding period from now on: the next conversion's reward is held for 30 days.
    expect((await app.api.patch(`/campaigns/${campaign.id}`, { holdDays: 30 })).status).toBe(200);
    await convert(app, code, 'dev.patel@example.com', { amount: 20 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function token(body: Record<string, unknown> = {}): Promise<string> {
    const res = await app.api.post('/embed-tokens', { userId: 'ann', campaignId: campaign.id, allowedOrigins: [site.origin], ...body });
    if (res.status !== 201) throw new Error(`embed token: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  }

  /** A fresh browser profile showing the shop's page with the widget; fails on a script error or a CSP refusal inside the widget. */
  async function shop(path: string, data: Record<string, string>, viewport = DESKTOP): Promise<{ page: Page; widget: FrameLocator; problems: string[] }> {
    const context = await browser.newContext({ viewport, locale: 'en-US', timezoneId: 'UTC', permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(site.serve(path, shopPage(e2eStack().gatewayUrl, data)));
    return { page, widget: page.frameLocator('iframe[title="Referral program"]'), problems };
  }

  it("shows the user's link, QR code, stats, friends and rewards in the shop's page, themed, and copies the link", async () => {
    const { page, widget, problems } = await shop('/account', { token: await token(), primary: '#7c3aed', radius: '14' });
    const link = `${e2eStack().gatewayUrl}/r/${code}`;
    await pw(widget.getByRole('heading', { level: 1, name: 'Invite your friends' })).toBeVisible();
    await pw(widget.getByRole('textbox', { name: 'Your referral link' })).toHaveValue(link);
    await pw(widget.getByRole('img', { name: 'QR code of your referral link' })).toHaveJSProperty('complete', true);
    pw(await widget.getByRole('img', { name: 'QR code of your referral link' }).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    const friends = widget.getByRole('region', { name: 'Your friends' }).getByRole('listitem');
    await pw(friends).toHaveCount(3);
    await pw(friends.filter({ hasText: 'bo•••om' })).toContainText('Joined');
    await pw(friends.filter({ hasText: 'ca•••om' })).toContainText('Converted');
    const rewards = widget.getByRole('region', { name: 'Your rewards' }).getByRole('listitem');
    await pw(rewards).toHaveCount(2);
    // Each in its currency; the held one says when it becomes available.
    await pw(rewards.filter({ hasText: discountCode })).toContainText(/\$10\.00\s*Ready to use/);
    await pw(rewards.filter({ hasNotText: discountCode })).toContainText(/\$10\.00\s*Pending\s*Available on [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    await pw(widget.getByRole('definition')).toHaveText(['1', '3', '2']);
    // Nothing of the friends but their shortened ids.
    await pw(widget.locator('body')).not.toContainText('example.com');
    // The theme reached the buttons.
    await pw(widget.getByRole('button', { name: 'Copy link' })).toHaveCSS('background-color', 'rgb(124, 58, 237)');
    // The frame took the widget's height: no inner scroll bar.
    const frameHeight = (await page.locator('iframe').boundingBox())!.height;
    const contentHeight = await widget.locator('html').evaluate((html) => html.scrollHeight);
    pw(Math.abs(frameHeight - contentHeight)).toBeLessThanOrEqual(2);

    await widget.getByRole('button', { name: 'Copy link' }).click();
    await pw(widget.getByRole('status')).toHaveText('Link copied');
    // (Browser-side code as text: this project's TypeScript has no DOM types.)
    pw(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    await page.screenshot({ path: join(shots, 'widget-desktop.png'), fullPage: true });
    pw(problems).toEqual([]);
  });

  it('is usable at phone width: one column, nothing wider than the screen, buttons large enough to tap', async () => {
    const { page, widget, problems } = await shop('/phone', { token: await token() }, PHONE);
    await pw(widget.getByRole('textbox', { name: 'Your referral link' })).toBeVisible();
    const overflow = await widget.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
    pw(overflow).toBeLessThanOrEqual(0);
    for (const button of await widget.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      pw(box.height).toBeGreaterThanOrEqual(32);
    }
    await page.screenshot({ path: join(shots, 'widget-phone.png'), fullPage: true });
    pw(problems).toEqual([]);
  });

  it('speaks the language asked, with the strings the page overrides', async () => {
    const { widget } = await shop('/fr', { token: await token(), lang: 'fr', strings: JSON.stringify({ title: 'Parrainez vos amis' }) });
    await pw(widget.getByRole('heading', { level: 1 })).toHaveText('Parrainez vos amis');
    await pw(widget.getByRole('button', { name: 'Copier le lien' })).toBeVisible();
  });

  it('shows an error and no data for an expired token and for a token of another deployment', async () => {
    const claims = { appId: app.appId, userId: 'ann', campaignId: campaign.id, origins: [site.origin] };
    const expired = signEmbedToken(stackSecretsKeys(), { ...claims, expiresAt: new Date(Date.now() - 60_000) });
    const foreign = signEmbedToken(`k1:${Buffer.alloc(32, 7).toString('base64')}`, { ...claims, expiresAt: new Date(Date.now() + 600_000) });
    for (const [name, bad, text] of [
      ['expired', expired, 'This page has expired'],
      ['foreign', foreign, 'cannot be shown right now'],
    ]) {
      const { page, widget } = await shop(`/${name}`, { token: bad });
      await pw(widget.getByRole('alert')).toContainText(text);
      await pw(widget.getByRole('textbox')).toHaveCount(0);
      await pw(widget.getByRole('listitem')).toHaveCount(0);
      await pw(widget.locator('body')).not.toContainText(code);
      await page.screenshot({ path: join(shots, `widget-${name}.png`) });
    }
  });

  it("cannot be framed by a site the token does not allow (the page's frame-ancestors)", async () => {
    const { page, problems } = await shop('/elsewhere', { token: await token({ allowedOrigins: ['https://shop.example.com'] }) });
    await pw.poll(() => problems.join('\n')).toMatch(/frame-ancestors 'self' https:\/\/shop\.example\.com/);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    pw(frame?.url() ?? '').not.toContain('/embed/referrals');
    pw(frame ? await frame.locator('#ris-widget').count() : 0).toBe(0);
  });
});
