import { chromium, expect as playwrightExpect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { e2eStack, infraTool } from '@ris/testing';

// The dashboard's browser tests: Playwright driving Debian's Chromium (the
// one tools/infra/up.sh installs; Playwright never downloads a browser here)
// against the gateway of the end-to-end stack, which serves the built
// dashboard at /dashboard.

/**
 * Playwright's assertions (they retry until the page shows what they expect),
 * patient enough for a page that loads while the rest of the end-to-end run
 * keeps the machine's two cores busy; every browser test asserts with it.
 */
export const expect = playwrightExpect.configure({ timeout: 15_000 });

/** Two widths the dashboard must be usable at: a laptop and a phone. */
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: infraTool('CHROMIUM') });
}

/**
 * A fresh browser profile (no cookie, no storage) at a fixed size, in UTC and
 * US English so that times and numbers read the same on every machine. The
 * page fails its test on any script error or Content-Security-Policy
 * violation, or on any console error where a test asks (see `expectCleanConsole`).
 */
export async function newDashboardPage(browser: Browser, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({
    baseURL: e2eStack().gatewayUrl,
    viewport,
    locale: 'en-US',
    timezoneId: 'UTC',
    colorScheme: 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const seen: ConsoleProblems = { problems: [], errors: [] };
  page.on('pageerror', (err) => seen.problems.push(`page error: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // The browser's own line for a failed request names no URL in its text: its location does.
    const line = `console: ${message.text()}${message.location().url ? ` (${message.location().url})` : ''}`;
    seen.errors.push(line);
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.problems.push(line);
  });
  pageProblems.set(page, seen);
  return page;
}

interface ConsoleProblems {
  /** Script errors and Content-Security-Policy refusals: never expected. */
  problems: string[];
  /** Every console error, a request the browser logs as failed (a 4xx, a 5xx) included. */
  errors: string[];
}

const pageProblems = new WeakMap<Page, ConsoleProblems>();

/**
 * No script error and nothing the Content-Security-Policy refused, on this
 * page so far; with `anyError`, no console error at all (a page that must
 * load cleanly: a request the browser logs as failed counts too, so pages
 * whose test forces a refusal leave it out).
 */
export function expectCleanConsole(page: Page, { anyError = false }: { anyError?: boolean } = {}): void {
  const seen = pageProblems.get(page) ?? { problems: [], errors: [] };
  expect(anyError ? seen.errors : seen.problems).toEqual([]);
}

/**
 * The page is no wider than the window: wide tables scroll inside their own
 * box, the page itself never sideways. (An expression the page evaluates:
 * this project is type-checked without the DOM's types.)
 */
export async function sideways(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
}

/** Signs in through the sign-in form, as a person does, and waits for the page it lands on. */
export async function signIn(page: Page, email: string, password: string, path = '/dashboard/sign-in'): Promise<void> {
  await page.goto(path);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/apps\/[^/]+\//);
}

/** The `ris_session` cookie the browser holds (HttpOnly: no page script can read it). */
export async function sessionCookie(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((c) => c.name === 'ris_session');
  if (!cookie) throw new Error('the browser holds no ris_session cookie');
  return cookie.value;
}

/**
 * A request sent from the dashboard's own page with its session, as someone
 * forcing a change from the browser's console would: same origin, the
 * cookie, the session's CSRF token and the app's X-App-Id.
 */
export async function fetchFromPage(page: Page, method: string, path: string, appId: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  return page.evaluate(
    async ({ method, path, appId, body }) => {
      const session = (await (await fetch('/console/v1/session')).json()) as { csrfToken: string };
      const res = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', 'X-App-Id': appId, 'X-CSRF-Token': session.csrfToken },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, appId, body },
  );
}
