import { readFile } from 'node:fs/promises';
import type { Browser, Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { addMember, createOperator, createTestApp, type TestApp, type TestOperator } from '@ris/testing';
import { expect, expectCleanConsole, launchChromium, newDashboardPage, signIn } from './support/browser';
import { convert, createCampaign, createReferral } from './support/referral-scenario';

// A program manager's daily jobs in Chromium against the whole stack: find a
// participant, export a list for finance, act on rewards; what the page shows
// and does must be what the API then says.
jest.setTimeout(120_000);

describe('the dashboard in a browser: participants, exports and reward actions', () => {
  let browser: Browser;
  let app: TestApp;
  let manager: TestOperator;
  let campaignId: string;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await createTestApp('Browser daily');
    manager = await createOperator();
    await addMember(app.appId, manager.id, 'MANAGER');
    campaignId = (await createCampaign(app, { name: 'Daily', refereeReward: { amount: 3, fulfillmentType: 'MANUAL' } })).id;
    const { referralCode } = await createReferral(app, campaignId, 'daily-ann', { referrerEmail: 'ann@daily.test' });
    await convert(app, referralCode, 'daily-bo');
    await convert(app, referralCode, 'daily-cy');
  });

  afterAll(async () => {
    await browser?.close();
  });

  const url = (path: string) => `/dashboard/apps/${app.appId}/${path}`;
  const signedIn = async () => {
    const page = await newDashboardPage(browser);
    await signIn(page, manager.email, manager.password);
    return page;
  };

  it('finds a participant by the first letters of their e-mail, and opens their page', async () => {
    const page = await signedIn();
    await page.goto(url('participants'));
    await page.getByRole('textbox', { name: 'Find a participant' }).fill('ANN@dai');
    await page.getByRole('button', { name: 'Find' }).click();
    const table = page.getByRole('table', { name: 'Participants' });
    await expect(table.getByRole('row')).toHaveCount(2);
    const row = table.getByRole('row').nth(1);
    await expect(row).toContainText('ann@daily.test');
    // As GET /participants says it: two conversions, 20 of reward value.
    const api = (await app.api.get('/participants?q=daily-ann')).body.participants[0];
    expect(api).toMatchObject({ conversions: 2, rewardValue: 20 });
    await expect(row.getByRole('cell').nth(3)).toHaveText('2');
    await row.getByRole('link', { name: 'daily-ann' }).click();
    await expect(page).toHaveURL(/\/users\?userId=daily-ann/);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('downloads the participants as CSV, equal to the API list', async () => {
    const page = await signedIn();
    await page.goto(url('participants?sort=USER_ID'));
    await expect(page.getByRole('table', { name: 'Participants' }).getByRole('row')).toHaveCount(4);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export participants' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^participants-.*\.csv$/);
    const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Array<Record<string, string>>;
    const listed = (await app.api.get('/participants?sort=USER_ID')).body.participants as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.userId, r.conversions, r.rewardValue])).toEqual(listed.map((p) => [p.userId, String(p.conversions), String(p.rewardValue)]));
    await page.context().close();
  });

  it('approves a held reward and marks a manual one fulfilled from the rewards page; the API agrees', async () => {
    // A held one: a self-referral, flagged.
    const { referralCode } = await createReferral(app, campaignId, 'daily-sly');
    const held = await convert(app, referralCode, 'daily-sly');
    const heldReward = held.rewards.find((r: { side: string }) => r.side === 'REFERRER').rewardId as string;
    // A manual one: the referee's reward of a clean conversion.
    const manual = (await app.api.get('/rewards?userId=daily-bo')).body.rewards[0];
    expect(manual).toMatchObject({ fulfillmentType: 'MANUAL', status: 'APPROVED' });

    const page = await signedIn();
    await page.goto(url(`rewards?reward=${heldReward}`));
    const drawer = page.getByRole('dialog', { name: 'Reward' });
    await drawer.getByRole('button', { name: 'Approve' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve 1 reward' });
    await confirm.getByRole('textbox', { name: /Note/ }).fill('Same family, genuine order');
    await confirm.getByRole('button', { name: 'Approve 1 reward' }).click();
    await expect(drawer.getByText('approved', { exact: true })).toBeVisible();
    expect((await app.api.get(`/rewards/${heldReward}`)).body.reward.status).toBe('APPROVED');
    const flag = (await app.api.get('/fraud/flags?status=APPROVED&limit=100')).body.flags.find((f: { conversionId: string }) => f.conversionId === held.conversionId);
    expect(flag).toMatchObject({ note: 'Same family, genuine order', resolvedBy: { email: manager.email } });

    await page.goto(url(`rewards?reward=${manual.id}`));
    await page.getByRole('dialog', { name: 'Reward' }).getByRole('button', { name: 'Mark fulfilled' }).click();
    await page.getByRole('dialog', { name: 'Mark fulfilled 1 reward' }).getByRole('button', { name: 'Mark fulfilled 1 reward' }).click();
    await expect(page.getByRole('dialog', { name: 'Reward' }).getByText('paid', { exact: true })).toBeVisible();
    expect((await app.api.get(`/rewards/${manual.id}`)).body.reward.status).toBe('PAID');
    expectCleanConsole(page);
    await page.context().close();
  });

  it('cancels several rewards at once from the list, with a note; the API shows them cancelled', async () => {
    const page: Page = await signedIn();
    await page.goto(url('rewards?userId=daily-cy'));
    const rows = page.getByTestId('reward-row');
    await expect(rows).toHaveCount(1);
    await rows.first().getByRole('checkbox').check();
    await page.getByLabel('Selected rewards').getByRole('button', { name: 'Cancel' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel 1 reward' });
    await confirm.getByRole('textbox', { name: /Note/ }).fill('Order returned');
    await confirm.getByRole('button', { name: 'Cancel 1 reward' }).click();
    await expect(rows.first()).toContainText('cancelled');
    const reward = (await app.api.get('/rewards?userId=daily-cy')).body.rewards[0];
    expect(reward).toMatchObject({ status: 'CANCELLED', cancellationNote: 'Order returned' });
    await page.context().close();
  });
});
