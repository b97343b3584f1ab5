import type { Browser } from '@playwright/test';
import { WebhookReceiver, addMember, createOperator, createTestApp, e2eStack, type TestApp, type TestOperator } from '@ris/testing';
import { expect, expectCleanConsole, fetchFromPage, launchChromium, newDashboardPage, signIn } from './support/browser';

// The Developers page in Chromium against the whole stack: an app's API keys
// and webhook endpoints, as its OWNER manages them.
// A browser on a loaded CI machine: a step may wait long for the page to draw again.
jest.setTimeout(180_000);

describe('the dashboard in a browser: API keys and webhooks', () => {
  let browser: Browser;
  let app: TestApp;
  let owner: TestOperator;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    browser = await launchChromium();
    receiver = await WebhookReceiver.start();
    app = await createTestApp('Browser developers');
    owner = await createOperator();
    await addMember(app.appId, owner.id, 'OWNER');
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  const url = (path: string) => `/dashboard/apps/${app.appId}/${path}`;
  const callWith = (apiKey: string) => fetch(`${e2eStack().gatewayUrl}/api/v1/campaigns`, { headers: { authorization: `Bearer ${apiKey}` } }).then((r) => r.status);

  it('issues a key named by its OWNER and shown once, which works; revoked, the API answers 401 to it', async () => {
    const page = await newDashboardPage(browser);
    await signIn(page, owner.email, owner.password);
    await page.goto(url('developers'));
    await page.getByRole('textbox', { name: 'Name' }).fill('Browser CI');
    await page.getByRole('button', { name: 'Issue a key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const apiKey = (await shown.getByLabel('API key').textContent())?.trim() ?? '';
    expect(apiKey).toMatch(/^rk_live_/);
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.getByText(apiKey)).toHaveCount(0);

    expect(await callWith(apiKey)).toBe(200);
    // The name is the key's in the console API too, and the list shows it.
    const keys = (await fetchFromPage(page, 'GET', `/console/v1/apps/${app.appId}/keys`, app.appId)).body as { keys: Array<{ prefix: string; name: string | null }> };
    expect(keys.keys.find((k) => k.prefix === apiKey.slice(0, 12))?.name).toBe('Browser CI');
    // The list says when each key was last used (the new one: now).
    const row = page.getByRole('row').filter({ has: page.getByText(apiKey.slice(0, 12), { exact: false }) });
    await expect(row).toContainText('Browser CI');
    await expect(async () => {
      await page.reload();
      // A loaded machine may take long to draw the list again: wait for the
      // row itself, so that a slow draw is not taken for a stale answer.
      await expect(row).toBeVisible({ timeout: 30_000 });
      await expect(row.getByRole('cell').nth(2)).not.toHaveText('never', { timeout: 5_000 });
    }).toPass({ timeout: 90_000 });

    await row.getByRole('button', { name: /^Revoke key/ }).click();
    await page.getByRole('dialog', { name: /^Revoke / }).getByRole('button', { name: 'Revoke key' }).click();
    await expect(row).toContainText('revoked');
    expect(await callWith(apiKey)).toBe(401);
    // The app's other key still works.
    expect(await callWith(app.apiKey)).toBe(200);
    expectCleanConsole(page);
    await page.context().close();
  });

  it('adds a webhook endpoint whose secret is shown once, and shows a delivery with each attempt and its response code', async () => {
    // The receiver refuses the first attempt: the delivery is retried (after about 1 s on this stack).
    receiver.respond('/browser-hook', (request) => (request.n === 1 ? { status: 503, body: 'busy' } : { status: 204 }));
    const page = await newDashboardPage(browser);
    await signIn(page, owner.email, owner.password);
    await page.goto(url('developers?tab=webhooks'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const form = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await form.getByRole('textbox', { name: 'URL' }).fill(receiver.url('/browser-hook'));
    await form.getByRole('textbox', { name: 'Description' }).fill('Browser test receiver');
    // Events read as the API and the delivered payloads spell them.
    await form.getByRole('combobox', { name: 'Events' }).click();
    await expect(form.getByRole('option', { name: 'REFERRAL_CREATED' })).toBeVisible();
    await expect(form.getByText('referral.created')).toHaveCount(0);
    // Nothing chosen (every event): the list closes when the focus moves on.
    await page.keyboard.press('Tab');
    await expect(form.getByRole('option', { name: 'REFERRAL_CREATED' })).toBeHidden();
    await form.getByRole('button', { name: 'Add endpoint' }).click();
    const shown = page.getByRole('dialog', { name: 'Endpoint added' });
    await expect(shown.getByLabel('Signing secret')).toHaveText(/^whsec_/);
    await shown.getByRole('button', { name: 'I have copied it' }).click();

    await page.getByRole('link', { name: receiver.url('/browser-hook') }).click();
    await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
    await page.getByRole('button', { name: 'Send test event' }).click();
    // The log follows the delivery while it is tried: no reload.
    const delivery = page.getByRole('row').filter({ hasText: 'WEBHOOK_TEST' });
    await expect(delivery).toContainText('succeeded', { timeout: 20_000 });
    await expect(delivery.getByRole('cell').nth(2)).toHaveText('2');
    await expect(delivery.getByRole('cell').nth(3)).toHaveText('204');

    await delivery.getByRole('button', { name: /^Attempts of delivery/ }).click();
    const attempts = page.getByRole('dialog', { name: 'Delivery' }).getByRole('table').getByRole('row');
    await expect(attempts).toHaveCount(3);
    await expect(attempts.nth(1)).toContainText('503');
    await expect(attempts.nth(1)).toContainText('busy');
    await expect(attempts.nth(2)).toContainText('204');
    // What the receiver got: two signed requests of the one message.
    const got = receiver.received('/browser-hook');
    expect(got).toHaveLength(2);
    expect(new Set(got.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(got.every((r) => /^v1,/.test(r.headers['webhook-signature'] ?? ''))).toBe(true);
    // The payload names the event as the page did.
    expect(JSON.parse(got[1]!.body).event).toBe('WEBHOOK_TEST');
    expectCleanConsole(page);
    await page.context().close();
  });

  it('deletes a webhook endpoint after confirming: back to the list, and the API no longer has it', async () => {
    const created = await app.api.post('/webhooks', { url: receiver.url('/to-delete'), description: 'Old receiver' });
    expect(created.status).toBe(201);
    const webhookId: string = created.body.webhook.id;
    const page = await newDashboardPage(browser);
    await signIn(page, owner.email, owner.password);
    await page.goto(url(`developers/webhooks/${webhookId}`));
    await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' });
    await expect(confirm).toContainText(receiver.url('/to-delete'));
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/apps/${app.appId}/developers\\?tab=webhooks$`));
    await expect(page.getByText('Endpoint deleted: nothing is sent to it any more.')).toBeVisible();
    await expect(page.getByRole('link', { name: receiver.url('/to-delete') })).toHaveCount(0);
    expect((await app.api.get(`/webhooks/${webhookId}`)).status).toBe(404);
    expectCleanConsole(page, { anyError: true });
    await page.context().close();
  });
});
