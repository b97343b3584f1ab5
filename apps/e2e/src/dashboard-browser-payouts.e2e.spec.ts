import { randomBytes } from 'node:crypto';
import type { Browser } from '@playwright/test';
import Stripe from 'stripe';
import { addMember, createOperator, createTestApp, type TestApp, type TestOperator } from '@ris/testing';
import { PHONE, expect, expectCleanConsole, fetchFromPage, launchChromium, newDashboardPage, sideways, signIn } from './support/browser';
import { convert, createCampaign, createReferral, expectStatus } from './support/referral-scenario';

// The Payouts and Integrations pages in Chromium against the whole stack:
// cash rewards paid out to a referrer (what is due, a payout created and
// marked paid with the transfer's reference), Stripe connected with a
// pasted secret and an event it signs listed with what it became, and what
// a VIEWER sees of both at phone width.
// Not a wait: the bound after which a hung test fails (every step waits on a condition). A browser on a loaded CI
// machine may take long to draw a page again, so the bound is wider than the suite's 60 s, as in the other browser files.
jest.setTimeout(180_000); // a bound on a hung test, not a pause

describe('the dashboard in a browser: payouts and Stripe', () => {
  let browser: Browser;
  let app: TestApp;
  let owner: TestOperator;
  let viewer: TestOperator;
  let campaignId: string;
  const rewardIds: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    app = await createTestApp('Browser payouts');
    [owner, viewer] = await Promise.all([createOperator(), createOperator()]);
    await Promise.all([addMember(app.appId, owner.id, 'OWNER'), addMember(app.appId, viewer.id, 'VIEWER')]);
    // $12.50 in cash to the referrer of each conversion, payable at once (no holding period, no fraud review).
    campaignId = (await createCampaign(app, { name: 'Cash for friends', fraud: { flagThreshold: 100 }, referrerReward: { amount: 12.5, fulfillmentType: 'CASH' } })).id;
    // Ana is due $25.00, Bea $12.50.
    for (const [referrerId, sales] of [['ana', 2], ['bea', 1]] as const) {
      const { referralCode } = await createReferral(app, campaignId, referrerId);
      for (let i = 0; i < sales; i += 1) {
        const { rewards } = await convert(app, referralCode, `${referrerId}-buyer-${i}`, { amount: 80 });
        if (referrerId === 'ana') rewardIds.push(rewards.find((r: { side: string }) => r.side === 'REFERRER').rewardId);
      }
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  const url = (path: string) => `/dashboard/apps/${app.appId}/${path}`;

  it('creates a payout of what a referrer is due above a minimum and marks it paid with the reference: the API says PAID, its rewards too', async () => {
    const page = await newDashboardPage(browser);
    await signIn(page, owner.email, owner.password);
    await page.goto(url('payouts'));
    const due = page.getByRole('table', { name: 'Due now' });
    await expect(due.getByTestId('due-row')).toHaveCount(2);
    // Only Ana reaches a minimum of $20.
    await page.getByRole('textbox', { name: /Minimum amount/ }).fill('20');
    await page.getByRole('search', { name: 'Minimum amount due' }).getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/minimumAmount=20/);
    const ana = due.getByTestId('due-row').filter({ hasText: 'ana' });
    await expect(ana).toHaveAttribute('data-payable', 'true');
    await expect(ana).toContainText('$25.00');
    await expect(due.getByTestId('due-row').filter({ hasText: 'bea' })).toContainText('below the minimum');

    await page.getByRole('button', { name: 'Create payouts' }).click();
    await page.getByRole('dialog', { name: 'Create payouts?' }).getByRole('button', { name: 'Create 1 payout' }).click();
    const made = page.getByRole('dialog', { name: 'Payouts made' }).getByTestId('made-payout');
    await expect(made).toHaveCount(1);
    await expect(made).toContainText('ana');
    const payoutId = ((await made.getByRole('link', { name: /^po_/ }).textContent()) ?? '').trim();
    await made.getByRole('link', { name: payoutId }).click();

    const drawer = page.getByRole('dialog', { name: 'Payout' });
    await expect(drawer.getByRole('table', { name: 'Rewards it pays' }).getByRole('row')).toHaveCount(3);
    await drawer.getByRole('button', { name: 'Mark paid' }).click();
    const confirm = page.getByRole('dialog', { name: 'Mark payout paid' });
    await expect(confirm).toContainText('Record that $25.00 was sent to ana');
    await confirm.getByRole('textbox', { name: /Transfer reference/ }).fill('WIRE-2026-0042');
    await confirm.getByRole('button', { name: 'Mark paid' }).click();
    await expect(page.getByText('Payout of $25.00 to ana marked paid.')).toBeVisible();
    await expect(drawer.getByText('WIRE-2026-0042')).toBeVisible();
    await expect(drawer.getByRole('button', { name: 'Mark paid' })).toHaveCount(0);

    const { payout } = expectStatus(await app.api.get(`/payouts/${payoutId}`), [200], 'payout').body;
    expect(payout).toMatchObject({ userId: 'ana', amount: 25, status: 'PAID', externalReference: 'WIRE-2026-0042' });
    for (const rewardId of rewardIds) expect((await app.api.get(`/rewards/${rewardId}`)).body.reward).toMatchObject({ status: 'PAID', payoutId });
    // The operator's change is in the audit log.
    const audit = await fetchFromPage(page, 'GET', `/console/v1/apps/${app.appId}/audit?action=${encodeURIComponent('POST /api/v1/payouts/{payoutId}/paid')}`, app.appId);
    expect((audit.body as { entries: Array<{ operator: { email: string }; target: { id: string } | null }> }).entries).toEqual([
      expect.objectContaining({ operator: expect.objectContaining({ email: owner.email }), target: expect.objectContaining({ id: payoutId }) }),
    ]);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('connects Stripe with a pasted secret, shows the endpoint URL, and lists an event signed with it as unmatched for an unknown code', async () => {
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const page = await newDashboardPage(browser);
    await signIn(page, owner.email, owner.password);
    await page.goto(url('integrations'));
    const form = page.getByRole('form', { name: 'Connect Stripe' });
    await form.getByLabel(/Webhook signing secret/).fill(secret);
    await form.getByRole('combobox', { name: /Campaign/ }).click();
    await page.getByRole('option', { name: 'Cash for friends' }).click();
    await form.getByRole('button', { name: 'Connect Stripe' }).click();
    const shown = page.getByLabel('Endpoint URL', { exact: true });
    await expect(shown).toHaveText(/\/api\/v1\/integrations\/stripe\/events\/stripe_/);
    await expect(page.getByRole('button', { name: 'Copy the endpoint URL' })).toBeVisible();
    const endpointUrl = ((await shown.textContent()) ?? '').trim();
    // The API has the integration, its URL the one shown, and never answers the secret.
    const state = expectStatus(await app.api.get('/integrations/stripe'), [200], 'integration').body;
    expect([state.connected, state.integration.endpointUrl, state.integration.campaignId]).toEqual([true, endpointUrl, campaignId]);
    expect(JSON.stringify(state)).not.toContain(secret);

    // Stripe posts a paid checkout whose referral code the app does not have, signed with the secret (locally: no network).
    const eventId = `evt_browser_${Date.now().toString(36)}`;
    const body = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'checkout.session.completed',
      livemode: false,
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: `cs_${Date.now().toString(36)}`, object: 'checkout.session', mode: 'payment', status: 'complete', payment_status: 'paid', client_reference_id: 'NO-SUCH-CODE', metadata: {}, amount_total: 4200, currency: 'usd' } },
    });
    const res = await fetch(endpointUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) },
      body,
    });
    expect([res.status, ((await res.json()) as { event: { status: string } }).event.status]).toEqual([200, 'UNMATCHED']);

    // The list follows what arrives: no reload.
    const row = page.getByTestId('stripe-event').filter({ hasText: eventId });
    await expect(row).toHaveAttribute('data-status', 'UNMATCHED');
    await expect(row).toContainText('checkout.session.completed');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: /^Unmatched/ }).click();
    await expect(page).toHaveURL(/\?status=UNMATCHED$/);
    await expect(row).toBeVisible();
    expectCleanConsole(page);
    await page.context().close();
  });

  it('shows a VIEWER both pages at 390 px without a change control or sideways scrolling; the server refuses a change forced from the page', async () => {
    const page = await newDashboardPage(browser, PHONE);
    await signIn(page, viewer.email, viewer.password);
    await page.goto(url('payouts'));
    await expect(page.getByRole('table', { name: 'Due now' }).getByTestId('due-row').filter({ hasText: 'bea' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Payouts' }).getByTestId('payout-row')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Create payouts' })).toHaveCount(0);
    expect(await sideways(page)).toBe(0);
    await page.getByRole('button', { name: /^Open payout / }).click();
    await expect(page.getByRole('dialog', { name: 'Payout' }).getByText('WIRE-2026-0042')).toBeVisible();
    expect((await fetchFromPage(page, 'POST', '/api/v1/payouts', app.appId, {})).status).toBe(403);

    await page.goto(url('integrations'));
    await expect(page.getByLabel('Endpoint URL', { exact: true })).toBeVisible();
    await expect(page.getByTestId('stripe-event')).toHaveCount(1);
    await expect(page.getByRole('form')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Disconnect' })).toHaveCount(0);
    expect(await sideways(page)).toBe(0);
    expectCleanConsole(page, { anyError: false });
    await page.context().close();
  });
});
