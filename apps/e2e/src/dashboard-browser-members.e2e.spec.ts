import type { Browser } from '@playwright/test';
import { OperatorSession, addMember, createOperator, createTestApp, type TestApp, type TestOperator } from '@ris/testing';
import { expect, expectCleanConsole, launchChromium, newDashboardPage, signIn } from './support/browser';

// The Members page in Chromium against the whole stack: an OWNER invites an
// address without an account, copies the link the page shows once, and the
// guest opens it in a browser of their own, sets a password and lands in
// the app, signed in, a member with the role.
// A browser on a loaded CI machine: a step may wait long for the page to draw again.
jest.setTimeout(120_000);

describe('the dashboard in a browser: members invited by a link', () => {
  let browser: Browser;
  let app: TestApp;
  let owner: TestOperator;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await createTestApp('Browser invitations');
    owner = await createOperator();
    await addMember(app.appId, owner.id, 'OWNER');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('invites an address from the Members page; the copied link, opened in a fresh browser, sets a password and lands in the app', async () => {
    const guest = `guest-${Date.now().toString(36)}@example.test`;
    const page = await newDashboardPage(browser);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, owner.email, owner.password);
    await page.goto(`/dashboard/apps/${app.appId}/members`);

    const form = page.getByRole('form', { name: 'Add a member' });
    await form.getByRole('textbox', { name: 'Email' }).fill(guest);
    await form.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await form.getByRole('button', { name: 'Add' }).click();

    const dialog = page.getByRole('dialog', { name: 'Invitation link' });
    await expect(dialog).toContainText(`send ${guest} this link yourself`);
    const shown = (await dialog.getByLabel('Invitation link').textContent())!.trim();
    expect(shown).toMatch(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(copied).toBe(shown);
    await dialog.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByRole('region', { name: 'Pending invitations' })).toContainText(guest);
    expectCleanConsole(page, { anyError: true });

    // The guest: a browser of their own, with nothing but the link.
    const guestPage = await newDashboardPage(browser);
    await guestPage.goto(copied);
    await expect(guestPage.getByRole('heading', { name: 'Join Browser invitations' })).toBeVisible();
    await expect(guestPage.getByText(`${owner.email} invited ${guest}`)).toBeVisible();
    await guestPage.getByRole('textbox', { name: 'Choose a password' }).fill('the guest chose this');
    await guestPage.getByRole('textbox', { name: 'Repeat the password' }).fill('the guest chose this');
    await guestPage.getByRole('button', { name: 'Set password and join' }).click();
    await expect(guestPage).toHaveURL(new RegExp(`/dashboard/apps/${app.appId}/overview(\\?|$)`)); // the overview may pick a campaign into the URL
    await expect(guestPage.getByRole('heading', { name: 'Overview' })).toBeVisible();
    await expect(guestPage.getByRole('button', { name: `Operator menu: ${guest}` })).toBeVisible();
    expectCleanConsole(guestPage);

    // The API agrees: a member with the role, the invitation gone; the link is used up.
    const asOwner = await OperatorSession.signIn(owner.email, owner.password);
    const team = (await asOwner.console.get(`/apps/${app.appId}/members`)).body;
    expect(team.members.find((m: { email: string }) => m.email === guest)).toMatchObject({ role: 'MANAGER' });
    expect(team.invitations).toEqual([]);
    const again = await newDashboardPage(browser);
    await again.goto(copied);
    await expect(again.getByRole('heading', { name: 'This invitation link is not valid' })).toBeVisible();

    // The owner's page lists them as a member now.
    await page.reload();
    await expect(page.getByRole('combobox', { name: `Role of ${guest}` })).toHaveValue('Manager');
    for (const p of [page, guestPage, again]) await p.context().close();
  });
});
