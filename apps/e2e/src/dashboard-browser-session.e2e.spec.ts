import type { Browser, Page } from '@playwright/test';
import { addMember, createOperator, createTestApp, e2eStack, type TestApp, type TestOperator } from '@ris/testing';
import { DESKTOP, PHONE, expect, expectCleanConsole, fetchFromPage, launchChromium, newDashboardPage, sessionCookie, sideways, signIn } from './support/browser';
import { createCampaign } from './support/referral-scenario';

// The dashboard in Chromium against the whole stack: signing in and out,
// the apps an operator may enter (and never another's), and the two widths.
// A browser on a loaded CI machine: a step may wait long for the page to draw again.
jest.setTimeout(120_000);

describe('the dashboard in a browser: sessions, apps and widths', () => {
  let browser: Browser;
  let appA: TestApp;
  let appB: TestApp;
  let appC: TestApp;
  let ana: TestOperator;

  beforeAll(async () => {
    browser = await launchChromium();
    // One after the other: an operator's first app is the oldest.
    appA = await createTestApp('Browser shop A');
    appC = await createTestApp('Browser shop C');
    appB = await createTestApp('Browser shop B');
    ana = await createOperator();
    await addMember(appA.appId, ana.id, 'OWNER');
    await addMember(appC.appId, ana.id, 'VIEWER');
    await Promise.all([createCampaign(appA, { name: 'Spring in A' }), createCampaign(appB, { name: 'Secret plan of B' })]);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const appOptions = async (page: Page) => {
    await page.getByRole('combobox', { name: 'App' }).click();
    const names = await page.getByRole('option').allTextContents();
    await page.keyboard.press('Escape');
    return names;
  };

  it('signs in through the form, lands in the app used last, and signing out ends the session: its old cookie gets 401', async () => {
    const page = await newDashboardPage(browser);
    await signIn(page, ana.email, ana.password);
    await expect(page).toHaveURL(new RegExp(`/dashboard/apps/${appA.appId}/overview(\\?|$)`)); // the overview may pick a campaign into the URL
    await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();

    // Switching app (from the header, on any page) is where the next sign-in lands.
    await page.getByRole('combobox', { name: 'App' }).click();
    await page.getByRole('option', { name: 'Browser shop C · viewer' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/apps/${appC.appId}/overview(\\?|$)`)); // the overview may pick a campaign into the URL

    const old = await sessionCookie(page.context());
    await page.getByRole('button', { name: /^Operator menu/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/dashboard\/sign-in$/);
    const withOldCookie = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${e2eStack().gatewayUrl}${path}`, { headers: { cookie: `ris_session=${old}`, ...headers } }).then((r) => r.status);
    expect(await withOldCookie('/console/v1/session')).toBe(401);
    expect(await withOldCookie('/api/v1/campaigns', { 'x-app-id': appA.appId })).toBe(401);
    // Going back to a page of the dashboard asks to sign in again.
    await page.goto(`/dashboard/apps/${appA.appId}/campaigns`);
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?returnTo=/);

    await signIn(page, ana.email, ana.password, '/dashboard/sign-in');
    await expect(page).toHaveURL(new RegExp(`/dashboard/apps/${appC.appId}/overview(\\?|$)`)); // the overview may pick a campaign into the URL
    // A new session, under a new id.
    expect(await sessionCookie(page.context())).not.toBe(old);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('loads signed out without a console error: the session probe answers 200 with no session, and the page goes to sign-in', async () => {
    const page = await newDashboardPage(browser);
    const probes: number[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname.startsWith('/console/v1/session')) probes.push(res.status());
    });
    await page.goto(`/dashboard/apps/${appA.appId}/campaigns`);
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?returnTo=/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    // A cookie whose session ended (or never was) is the same signed-out answer.
    await page.context().addCookies([{ name: 'ris_session', value: 'not-a-session', url: e2eStack().gatewayUrl }]);
    await page.goto(`/dashboard/apps/${appA.appId}/overview`);
    await expect(page).toHaveURL(/\/dashboard\/sign-in\?returnTo=/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(probes).toEqual([200, 200]);
    // Not even the browser's own line for a failed request: signed out is an answer, not an error.
    expectCleanConsole(page, { anyError: true });
    await page.context().close();
  });

  it('starts Tab at "Skip to content", which leads past the navigation into the page, and no stop of Tab is inside a chart', async () => {
    const page = await newDashboardPage(browser);
    await signIn(page, ana.email, ana.password);
    await page.goto(`/dashboard/apps/${appA.appId}/overview`);
    await expect(page.getByRole('figure', { name: 'Referrals, clicks, conversions and reversals per day' }).locator('svg').first()).toBeVisible();
    await expect(page.getByRole('figure', { name: 'Coins and tokens issued against redeemed per day' }).locator('svg').first()).toBeVisible();

    // Where the focus is, in words: its role and name, whether it is in the page's content, and whether inside an SVG.
    const focused = () =>
      page.evaluate(`(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        return { what: el.tagName + ' ' + (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40), inMain: !!el.closest('main'), inSvg: !!el.closest('svg') || el.tagName.toLowerCase() === 'svg' };
      })()`) as Promise<{ what: string; inMain: boolean; inSvg: boolean } | null>;

    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const first = await focused();
    expect(first?.inMain).toBe(true);

    // On through the whole page (campaign, period, the charts, the engine's section) until the focus leaves it.
    const stops = [first!];
    for (let i = 0; i < 60; i += 1) {
      await page.keyboard.press('Tab');
      const now = await focused();
      if (!now || !now.inMain) break;
      stops.push(now);
    }
    expect(stops.filter((s) => s.inSvg)).toEqual([]);
    expect(stops.length).toBeLessThan(60);
    expectCleanConsole(page);
    await page.context().close();
  });

  it("never shows an operator of app A anything of app B, not even when its URL is typed", async () => {
    const page = await newDashboardPage(browser);
    const answeredForB: string[] = [];
    page.on('response', (res) => {
      if (res.request().headers()['x-app-id'] === appB.appId && res.ok()) answeredForB.push(res.url());
    });
    await signIn(page, ana.email, ana.password);
    expect(await appOptions(page)).toEqual(['Browser shop A · owner', 'Browser shop C · viewer']);

    await page.goto(`/dashboard/apps/${appA.appId}/campaigns`);
    await expect(page.getByRole('link', { name: 'Spring in A' })).toBeVisible();
    await page.goto(`/dashboard/apps/${appB.appId}/campaigns`);
    await expect(page.getByText('You are not a member of this app')).toBeVisible();
    await expect(page.locator('body')).not.toContainText('Secret plan of B');
    // Forced from the page with the session: the server refuses it, whatever the page shows.
    const forced = await fetchFromPage(page, 'GET', '/api/v1/campaigns', appB.appId);
    expect(forced.status).toBe(403);
    expect(answeredForB).toEqual([]);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('is usable at 1280 px and at 390 px: navigation by the side or behind a button, nothing wider than the screen', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const page = await newDashboardPage(browser, viewport);
      await signIn(page, ana.email, ana.password);
      await page.goto(`/dashboard/apps/${appA.appId}/overview`);
      const burger = page.getByRole('button', { name: 'Open navigation' });
      if (viewport === PHONE) {
        await expect(burger).toBeVisible();
        await burger.click();
      } else {
        await expect(burger).toBeHidden();
      }
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Campaigns' }).click();
      await expect(page.getByRole('heading', { name: 'Campaigns' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Spring in A' })).toBeVisible();
      for (const [path, heading] of [
        ['campaigns', 'Campaigns'],
        ['fraud', 'Fraud review'],
        ['developers', 'Developers'],
        ['audit', 'Audit log'],
      ]) {
        await page.goto(`/dashboard/apps/${appA.appId}/${path}`);
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
        expect([viewport.width, path, await sideways(page)]).toEqual([viewport.width, path, 0]);
      }
      expectCleanConsole(page);
      await page.context().close();
    }
  });
});
