import type { Browser, Page } from '@playwright/test';
import { addMember, createOperator, createTestApp, type TestApp, type TestOperator } from '@ris/testing';
import { PHONE, expect, expectCleanConsole, fetchFromPage, launchChromium, newDashboardPage, sideways, signIn } from './support/browser';
import { expectStatus } from './support/referral-scenario';

// The incentive pages of the dashboard in Chromium against the whole stack:
// what an operator defines or does there is what the API then says, and
// what the API says is what the pages show.
// A browser on a loaded CI machine: a step may wait long for the page to draw again.
jest.setTimeout(120_000);

describe('the dashboard in a browser: the incentive engine', () => {
  let browser: Browser;
  let app: TestApp;
  let manager: TestOperator;
  let viewer: TestOperator;
  let managerPage: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await createTestApp('Browser incentives');
    [manager, viewer] = await Promise.all([createOperator(), createOperator()]);
    await Promise.all([addMember(app.appId, manager.id, 'MANAGER'), addMember(app.appId, viewer.id, 'VIEWER')]);
    managerPage = await newDashboardPage(browser);
    await signIn(managerPage, manager.email, manager.password);
  });

  afterAll(async () => {
    await browser?.close();
  });

  const url = (path: string) => `/dashboard/apps/${app.appId}/${path}`;
  const event = async (userId: string, actionKey: string) => expectStatus(await app.api.post('/incentives/events', { userId, actionKey }), [201], `event ${actionKey} of ${userId}`).body;
  const balanceOf = async (userId: string) => expectStatus(await app.api.get(`/incentives/balances/${userId}`), [200], `balance of ${userId}`).body.balance;

  it("defines a badge, a level awarding it and an action in their forms; after events sent through the API the user's page shows the balance, ledger, level and badge", async () => {
    const page = managerPage;
    await page.goto(url('progression?tab=badges'));
    await page.getByRole('button', { name: 'New badge' }).click();
    let dialog = page.getByRole('dialog', { name: 'New badge' });
    await dialog.getByRole('textbox', { name: 'Key' }).fill('champion');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Champion');
    await dialog.getByRole('button', { name: 'Create badge' }).click();
    await expect(page.getByRole('table', { name: 'Badges' })).toContainText('Champion');

    await page.getByRole('tab', { name: 'Levels' }).click();
    await page.getByRole('button', { name: 'New level' }).click();
    dialog = page.getByRole('dialog', { name: 'New level' });
    await dialog.getByRole('textbox', { name: 'Level', exact: true }).fill('1');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Rookie');
    await dialog.getByRole('textbox', { name: 'XP threshold' }).fill('100');
    await dialog.getByRole('textbox', { name: 'Coins on reaching it' }).fill('10');
    await dialog.getByRole('combobox', { name: 'Badge on reaching it' }).click();
    await dialog.getByRole('option', { name: 'Champion (champion)' }).click();
    await dialog.getByRole('button', { name: 'Create level' }).click();
    await expect(page.getByRole('table', { name: 'Levels' })).toContainText('10 coins · badge champion');

    await page.goto(url('actions'));
    await page.getByRole('button', { name: 'New action' }).click();
    dialog = page.getByRole('dialog', { name: 'New action' });
    await dialog.getByRole('textbox', { name: 'Key' }).fill('checkout');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Checkout');
    await dialog.getByRole('textbox', { name: 'Coins' }).fill('30');
    await dialog.getByRole('textbox', { name: 'XP' }).fill('60');
    await dialog.getByRole('button', { name: 'Create action' }).click();
    await expect(page.getByRole('table', { name: 'Actions' })).toContainText('30 coins · 60 XP');
    expect((await app.api.get('/incentives/actions/checkout')).body.action).toMatchObject({ coins: 30, xp: 60, tokens: 0, type: 'STANDARD', enabled: true });

    const first = await event('buyer', 'checkout');
    const second = await event('buyer', 'checkout');
    expect([first.levelUp, second.levelUp]).toEqual([null, { from: 0, to: 1 }]);
    const balance = await balanceOf('buyer');
    expect(balance).toMatchObject({ coins: 70, xp: 120, level: 1, levelName: 'Rookie' });

    await page.goto(url('users?userId=buyer'));
    const main = page.getByRole('main');
    await expect(main.getByLabel('Coins', { exact: true })).toHaveText('70');
    await expect(main.getByLabel('XP', { exact: true })).toHaveText('120');
    await expect(main.getByLabel('Level', { exact: true })).toHaveText('1 · Rookie');
    const ledger = page.getByTestId('ledger-row');
    await expect(ledger).toHaveCount(3);
    await expect(ledger.nth(0)).toContainText('level reward');
    await expect(ledger.nth(0)).toContainText('+10 coins');
    await expect(ledger.nth(2)).toContainText('+30 coins · +60 XP');
    await page.getByRole('tab', { name: 'Badges' }).click();
    await expect(page.getByRole('table', { name: 'Badges' })).toContainText('Champion');
    await expect(page.getByRole('table', { name: 'Badges' })).toContainText('level 1');
    // The events page says what each event granted.
    await page.goto(url('events?userId=buyer'));
    await expect(page.getByRole('table', { name: 'Events' }).getByRole('row')).toHaveCount(3);
    await expect(page.getByRole('table', { name: 'Events' })).toContainText('30 coins · 60 XP');
    expect(await sideways(page)).toBe(0);
    expectCleanConsole(page);
  });

  it('makes a manual adjustment in the user view: a debit below zero is refused with the API’s message; a credit is in the ledger and the audit log', async () => {
    const page = managerPage;
    expectStatus(await app.api.post('/incentives/actions', { key: 'visit', name: 'Visit', type: 'STANDARD', coins: 15 }), [201], 'action');
    await event('adjusted', 'visit');
    await page.goto(url('users?userId=adjusted'));
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust the balance of adjusted' });
    await dialog.getByRole('textbox', { name: 'Coins' }).fill('-100');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Chargeback of order 77');
    await dialog.getByRole('button', { name: 'Adjust' }).click();
    await expect(dialog.getByRole('alert')).toContainText('enough coins');
    expect((await balanceOf('adjusted')).coins).toBe(15);

    await dialog.getByRole('textbox', { name: 'Coins' }).fill('25');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Goodwill for the late parcel');
    await dialog.getByRole('button', { name: 'Adjust' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('main').getByLabel('Coins', { exact: true })).toHaveText('40');
    const newest = page.getByTestId('ledger-row').first();
    await expect(newest).toContainText('manual adjustment');
    await expect(newest).toContainText('+25 coins');
    await expect(newest).toContainText('Goodwill for the late parcel');
    const ledger = (await app.api.get('/incentives/balances/adjusted/transactions')).body.transactions;
    expect(ledger.map((t: any) => [t.cause, t.coins, t.description])).toEqual([
      ['ADJUSTMENT', 25, 'Goodwill for the late parcel'],
      ['EVENT', 15, 'Visit'],
    ]);

    await page.goto(url(`audit?action=${encodeURIComponent('POST /api/v1/incentives/balances/{userId}/adjustments')}`));
    const entry = page.getByRole('row').filter({ hasText: 'adjusted' });
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(manager.email);
    expectCleanConsole(page);
  });

  it('publishes a catalog item; a redemption made through the API is fulfilled in the dashboard, another cancelled with its coins refunded', async () => {
    const page = managerPage;
    expectStatus(await app.api.post('/incentives/actions', { key: 'big_order', name: 'Big order', type: 'STANDARD', coins: 500 }), [201], 'action');
    await event('shopper', 'big_order');

    await page.goto(url('catalog'));
    await page.getByRole('button', { name: 'New item' }).click();
    const dialog = page.getByRole('dialog', { name: 'New item' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Tote bag');
    await dialog.getByRole('textbox', { name: 'Coin cost' }).fill('200');
    await dialog.getByRole('checkbox', { name: 'Unlimited units in stock' }).uncheck();
    await dialog.getByRole('textbox', { name: 'Units in stock' }).fill('5');
    await dialog.getByRole('button', { name: 'Create item' }).click();
    await page.getByRole('switch', { name: 'Tote bag published' }).check();
    await expect(page.getByText('“Tote bag” published.')).toBeVisible();
    const item = (await app.api.get('/incentives/catalog?published=true')).body.items.find((i: any) => i.name === 'Tote bag');
    expect(item).toMatchObject({ coinCost: 200, inventory: 5, published: true });

    const redeem = async (key: string) =>
      expectStatus(await app.api.post('/incentives/redeem', { userId: 'shopper', itemId: item.id }, { 'idempotency-key': key }), [201], `redeem ${key}`).body.redemption;
    const kept = await redeem(`keep-${app.appId}`);
    const returned = await redeem(`return-${app.appId}`);
    expect((await balanceOf('shopper')).coins).toBe(100);

    await page.goto(url('catalog?tab=redemptions&status=PENDING'));
    const rows = page.getByTestId('redemption-row');
    await expect(rows).toHaveCount(2);
    await rows.filter({ hasText: kept.id }).getByRole('button', { name: /^Fulfil/ }).click();
    await page.getByRole('dialog', { name: /^Fulfil/ }).getByRole('button', { name: 'Fulfil' }).click();
    await expect(rows).toHaveCount(1);
    await rows.filter({ hasText: returned.id }).getByRole('button', { name: /^Cancel/ }).click();
    await page.getByRole('dialog', { name: /^Cancel/ }).getByRole('button', { name: 'Cancel redemption' }).click();
    await expect(page.getByText('Cancelled: 200 coins refunded to shopper, the unit restocked.')).toBeVisible();

    const byId = async (id: string) => (await app.api.get('/incentives/redemptions?userId=shopper')).body.redemptions.find((r: any) => r.id === id);
    expect((await byId(kept.id)).status).toBe('FULFILLED');
    expect((await byId(returned.id)).status).toBe('CANCELLED');
    expect((await balanceOf('shopper')).coins).toBe(300);
    expect((await app.api.get(`/incentives/catalog/${item.id}`)).body.item.inventory).toBe(4);
    await page.goto(url('users?userId=shopper'));
    await expect(page.getByRole('main').getByLabel('Coins', { exact: true })).toHaveText('300');
    expect(await sideways(page)).toBe(0);
    expectCleanConsole(page);
  });

  it('shows the ranks the API returns on the leaderboard and one user’s position, refreshes the boards with the run followed to its end, and counts an event’s repeats', async () => {
    expectStatus(await app.api.post('/incentives/actions', { key: 'climb', name: 'Climb', type: 'STANDARD', xp: 7 }), [201], 'action');
    for (const [userId, times] of [['ada', 3], ['bo', 1], ['cy', 2]] as const) {
      for (let i = 0; i < times; i += 1) await event(userId, 'climb');
    }
    // A repeat of an event's idempotencyKey is answered from the first and counted on it.
    for (const expected of [201, 200]) expectStatus(await app.api.post('/incentives/events', { userId: 'cy', actionKey: 'climb', idempotencyKey: 'cy-once' }), [expected], 'keyed event');
    const ranked = expectStatus(await app.api.get('/incentives/leaderboard?limit=100'), [200], 'board').body as Array<{ rank: number; userId: string; xp: number }>;
    const page = managerPage;
    await page.goto(url('leaderboard'));
    const rows = page.getByRole('table', { name: 'Leaderboard, all time' }).getByTestId('board-row');
    await expect(rows).toHaveCount(ranked.length);
    const shown = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)));
    expect(shown).toEqual(ranked.map((e) => [String(e.rank), e.userId]));
    await page.getByRole('textbox', { name: 'User id' }).fill('cy');
    await page.getByRole('button', { name: 'Find position' }).click();
    const cy = ranked.find((e) => e.userId === 'cy')!;
    await expect(page.getByRole('status')).toHaveText(`cy is #${cy.rank} all time, with ${cy.xp} XP.`);
    expect(await sideways(page)).toBe(0);

    // A refresh rebuilds the boards from the database, its progress followed until it ends; the ranks stay.
    await page.getByRole('button', { name: 'Refresh boards' }).click();
    await expect(page.getByRole('table', { name: 'Refreshes' }).getByRole('row').nth(1)).toContainText('succeeded');
    const run = (await app.api.get('/incentives/leaderboard/refresh-runs')).body.runs[0];
    expect(run).toMatchObject({ status: 'SUCCEEDED', usersDone: run.usersTotal });
    await expect(rows).toHaveCount(ranked.length);

    await page.goto(url('events?userId=cy&actionKey=climb'));
    await expect(page.getByRole('table', { name: 'Events' })).toContainText('1 repeat');
    expectCleanConsole(page);
  });

  it('shows a VIEWER no change control on the incentive pages (no balance adjustment), and the server answers 403 when one is forced', async () => {
    const item = expectStatus(await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 10, published: true }), [201], 'item').body.item;
    expectStatus(await app.api.post('/incentives/actions', { key: 'tiny', name: 'Tiny', type: 'STANDARD', coins: 50 }), [201], 'action');
    await event('looker', 'tiny');
    const pending = expectStatus(await app.api.post('/incentives/redeem', { userId: 'looker', itemId: item.id }), [201], 'redeem').body.redemption;

    const page = await newDashboardPage(browser);
    await signIn(page, viewer.email, viewer.password);
    const changeControls = /new |edit|delete|withdraw|award|fulfil|cancel|adjust|refresh/i;
    for (const [path, loaded] of [
      ['actions', page.getByRole('table', { name: 'Actions' })],
      ['progression', page.getByRole('tab', { name: 'Levels', selected: true })],
      ['progression?tab=badges', page.getByRole('tab', { name: 'Badges', selected: true })],
      ['catalog', page.getByRole('table', { name: 'Catalog items' })],
      ['catalog?tab=redemptions', page.getByRole('table', { name: 'Redemptions' })],
      ['marketplace', page.getByRole('tab', { name: 'Your listings', selected: true })],
      ['users?userId=looker', page.getByTestId('ledger-row').first()],
      ['leaderboard', page.getByRole('table', { name: 'Leaderboard, all time' })],
    ] as const) {
      await page.goto(url(path));
      await expect(loaded).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const buttons = await page.getByRole('button').allTextContents();
      expect([path, buttons.filter((text) => changeControls.test(text.trim()))]).toEqual([path, []]);
      expect([path, await page.getByRole('switch').count()]).toEqual([path, 0]);
      expect([path, await sideways(page)]).toEqual([path, 0]);
    }
    for (const [method, path, body] of [
      ['PATCH', `/api/v1/incentives/redemptions/${pending.id}`, { status: 'CANCELLED' }],
      ['PATCH', '/api/v1/incentives/actions/tiny', { enabled: false }],
      ['POST', '/api/v1/incentives/badges', { key: 'forced', name: 'Forced' }],
      ['POST', '/api/v1/incentives/balances/looker/adjustments', { coins: 1000, note: 'Forced by a viewer' }],
    ] as const) {
      const forced = await fetchFromPage(page, method, path, app.appId, body);
      expect([method, path, forced.status, (forced.body as any).error.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    expect((await app.api.get('/incentives/redemptions?userId=looker')).body.redemptions[0].status).toBe('PENDING');
    expect((await balanceOf('looker')).coins).toBe(40);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('lays the incentive pages out at 390 px without scrolling sideways (the tests above check 1280 px on each page they open)', async () => {
    const page = await newDashboardPage(browser, PHONE);
    await signIn(page, manager.email, manager.password);
    for (const [path, heading] of [
      ['actions?action=checkout', 'Actions'],
      ['events', 'Events'],
      ['progression', 'Levels & badges'],
      ['catalog?tab=redemptions', 'Catalog'],
      ['marketplace?tab=settlements', 'Marketplace'],
      ['leaderboard', 'Leaderboard'],
      ['users?userId=buyer', 'Users'],
    ]) {
      await page.goto(url(path));
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      expect([path, await sideways(page)]).toEqual([path, 0]);
    }
    expectCleanConsole(page);
    await page.context().close();
  });
});
