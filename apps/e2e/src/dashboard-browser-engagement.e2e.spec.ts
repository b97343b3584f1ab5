import type { Browser, Page } from '@playwright/test';
import { addMember, createOperator, createTestApp, type TestApp, type TestOperator } from '@ris/testing';
import { expect, expectCleanConsole, launchChromium, newDashboardPage, signIn } from './support/browser';
import { expectStatus } from './support/referral-scenario';

// Streaks, boosts and a reversal in the dashboard, in Chromium against the
// whole stack: what an operator defines or does there is what the API then
// says, and what the API says the pages show.
// Not a wait: the bound after which a hung test fails (every step waits on a condition). A browser on a loaded CI
// machine may take long to draw a page again, so the bound is wider than the suite's 60 s, as in the other browser files.
jest.setTimeout(180_000); // a bound on a hung test, not a pause

/** A time as the date-time fields take it: YYYY-MM-DD HH:mm in the browser's (this machine's) zone. */
const localField = (at: Date) => {
  const p = (v: number) => String(v).padStart(2, '0');
  return `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())} ${p(at.getHours())}:${p(at.getMinutes())}`;
};

describe('the dashboard in a browser: streaks, boosts and reversals', () => {
  let browser: Browser;
  let app: TestApp;
  let manager: TestOperator;
  let viewer: TestOperator;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await createTestApp('Browser engagement');
    [manager, viewer] = await Promise.all([createOperator(), createOperator()]);
    await Promise.all([addMember(app.appId, manager.id, 'MANAGER'), addMember(app.appId, viewer.id, 'VIEWER')]);
    expectStatus(await app.api.post('/incentives/actions', { key: 'login', name: 'Log in', type: 'STANDARD', coins: 5, xp: 10 }), [201], 'action');
    page = await newDashboardPage(browser);
    await signIn(page, manager.email, manager.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const url = (path: string) => `/dashboard/apps/${app.appId}/${path}`;
  const event = async (userId: string) => expectStatus(await app.api.post('/incentives/events', { userId, actionKey: 'login' }), [201], `event of ${userId}`).body;

  it('defines a streak in its form; an event extends it, and the user\u2019s Streaks tab shows it', async () => {
    await page.goto(url('progression?tab=streaks'));
    await page.getByRole('button', { name: 'New streak' }).click();
    const dialog = page.getByRole('dialog', { name: 'New streak' });
    await dialog.getByRole('textbox', { name: 'Key' }).fill('daily_login');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Daily login');
    await dialog.getByRole('textbox', { name: 'Freezes per month' }).fill('1');
    await dialog.getByRole('button', { name: 'Add reward' }).click();
    const reward = dialog.getByRole('group', { name: 'Reward 1' });
    await reward.getByRole('textbox', { name: 'Length' }).fill('3');
    await reward.getByRole('textbox', { name: 'Coins' }).fill('20');
    await dialog.getByRole('button', { name: 'Create streak' }).click();
    await expect(page.getByRole('table', { name: 'Streaks' })).toContainText('Daily login');
    const defined = expectStatus(await app.api.get('/incentives/streaks/definitions/daily_login'), [200], 'streak').body.streak;
    expect(defined).toMatchObject({ key: 'daily_login', period: 'DAILY', actionKeys: [], freezesPerMonth: 1, rewards: [{ length: 3, coins: 20, xp: 0, tokens: 0, badgeKey: null }] });

    expect((await event('sam')).streaksExtended).toEqual([{ key: 'daily_login', length: 1, freezesUsed: 0, restarted: false }]);
    await page.goto(url('users?userId=sam&tab=streaks'));
    const streaks = page.getByRole('table', { name: 'Streaks' });
    await expect(streaks).toContainText('Daily login');
    await expect(streaks).toContainText('extended this period');
  });

  it('creates a boost in its form; events inside it earn double, and the ledger names it', async () => {
    await page.goto(url('boosts'));
    await page.getByRole('button', { name: 'New boost' }).click();
    const dialog = page.getByRole('dialog', { name: 'New boost' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Double weekend');
    await dialog.getByRole('textbox', { name: 'Multiplier' }).fill('2');
    await dialog.getByRole('textbox', { name: 'Starts at' }).fill(localField(new Date(Date.now() - 3_600_000)));
    await dialog.getByRole('textbox', { name: 'Ends at' }).fill(localField(new Date(Date.now() + 86_400_000)));
    await dialog.getByRole('button', { name: 'Create boost' }).click();
    await expect(page.getByRole('table', { name: 'Boosts' })).toContainText('Double weekend');
    const [boost] = expectStatus(await app.api.get('/incentives/boosts'), [200], 'boosts').body.boosts;
    expect(boost).toMatchObject({ name: 'Double weekend', multiplier: 2, state: 'ACTIVE', actionKeys: [], userIds: [] });

    const boosted = await event('sam');
    expect(boosted.rewarded).toEqual({ coins: 10, xp: 20, tokens: 0 });
    await page.goto(url('users?userId=sam'));
    await expect(page.getByTestId('ledger-row').first()).toContainText('×2 Double weekend');
  });

  it('reverses an event from the user\u2019s ledger: the API shows the reversal, the page the balance after it', async () => {
    const { event: reversed } = await event('rita');
    await event('rita');
    await page.goto(url('users?userId=rita'));
    await page.getByRole('button', { name: `Reverse event ${reversed.id}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Reverse event' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Test purchase');
    await dialog.getByRole('button', { name: 'Reverse event' }).click();
    await expect(dialog).toBeHidden();
    const txns = expectStatus(await app.api.get('/incentives/balances/rita/transactions'), [200], 'ledger').body.transactions as Array<{ reason: string; cause: string; sourceId: string; description: string }>;
    expect(txns[0]).toMatchObject({ reason: 'REVERSAL', cause: 'EVENT_REVERSAL', sourceId: reversed.id, description: 'Event reversed: Test purchase' });
    const { balance } = expectStatus(await app.api.get('/incentives/balances/rita'), [200], 'balance').body;
    await expect(page.getByRole('main').getByLabel('Coins', { exact: true })).toHaveText(String(balance.coins));
    await expect(page.getByRole('button', { name: `Reverse event ${reversed.id}` })).toHaveCount(0);
  });

  it('a viewer sees streaks, boosts and the ledger without the controls that change them', async () => {
    const viewerPage = await newDashboardPage(browser);
    await signIn(viewerPage, viewer.email, viewer.password);
    await viewerPage.goto(url('progression?tab=streaks'));
    await expect(viewerPage.getByRole('table', { name: 'Streaks' })).toContainText('Daily login');
    await expect(viewerPage.getByRole('button', { name: 'New streak' })).toHaveCount(0);
    await viewerPage.goto(url('boosts'));
    await expect(viewerPage.getByRole('table', { name: 'Boosts' })).toContainText('Double weekend');
    await expect(viewerPage.getByRole('button', { name: 'New boost' })).toHaveCount(0);
    await viewerPage.goto(url('users?userId=sam'));
    await expect(viewerPage.getByTestId('ledger-row').first()).toBeVisible();
    await expect(viewerPage.getByRole('button', { name: /^Reverse event / })).toHaveCount(0);
    expectCleanConsole(viewerPage);
    await viewerPage.close();
  });
});
