import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApiKeySummary } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const KEY = 'rk_live_0123456789abcdefSECRET';
const listed: ApiKeySummary = { id: 'key_1', name: null, prefix: 'rk_live_0123', createdAt: '2026-11-01T10:00:00.000Z', revokedAt: null, lastUsedAt: '2026-11-24T08:00:00.000Z' };
const webhook = {
  id: 'wh_1',
  url: 'https://example.com/hook',
  events: [],
  description: null,
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

describe('API keys', () => {
  it('shows a new key once, with a copy button, and forgets it when the dialog closes', async () => {
    let keys: ApiKeySummary[] = [listed];
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/keys', () => ({ body: { keys } }))
      .on('POST', '/console/v1/apps/app_1/keys', () => {
        keys = [...keys, { ...listed, id: 'key_2', prefix: 'rk_live_4567', lastUsedAt: null }];
        return { status: 201, body: { key: { id: 'key_2', apiKey: KEY, name: null, prefix: 'rk_live_4567', createdAt: '2026-11-24T10:00:00.000Z' } } };
      });
    renderApp('/apps/app_1/developers', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    expect(await screen.findByText('rk_live_0123…')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Issue a key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByText(KEY)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    expect(api.sent('POST', '/console/v1/apps/app_1/keys')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
    // Unnamed: no body, as the console took it before keys had names.
    expect(api.sent('POST', '/console/v1/apps/app_1/keys')[0]!.body).toBeUndefined();
    await user.click(within(dialog).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByText(KEY)).toBeNull());
    // The list shows the new key by its prefix only; the full key is nowhere on the page any more.
    expect(await screen.findByText('rk_live_4567…')).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('SECRET');
  });

  it('issues a key with the name the OWNER typed, and lists each key by its name', async () => {
    let keys: ApiKeySummary[] = [listed];
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/keys', () => ({ body: { keys } }))
      .on('POST', '/console/v1/apps/app_1/keys', (r) => {
        const { name } = r.body as { name: string };
        keys = [{ ...listed, id: 'key_2', name, prefix: 'rk_live_4567', lastUsedAt: null }, ...keys];
        return { status: 201, body: { key: { id: 'key_2', apiKey: KEY, name, prefix: 'rk_live_4567', createdAt: '2026-11-24T10:00:00.000Z' } } };
      });
    renderApp('/apps/app_1/developers', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Issue an API key' });
    await user.type(within(form).getByRole('textbox', { name: /^Name/ }), '  Production backend ');
    await user.click(within(form).getByRole('button', { name: 'Issue a key' }));
    expect(await screen.findByRole('dialog', { name: 'Your new API key' })).toBeInTheDocument();
    expect(api.sent('POST', '/console/v1/apps/app_1/keys')[0]!.body).toEqual({ name: 'Production backend' });
    await user.click(screen.getByRole('button', { name: 'I have copied it' }));
    const row = (await screen.findByText('Production backend')).closest('tr')!;
    expect(row).toHaveTextContent('rk_live_4567…');
    // The field is empty again for the next key.
    expect(within(form).getByRole('textbox', { name: /^Name/ })).toHaveValue('');
    await user.click(within(row).getByRole('button', { name: 'Revoke key rk_live_4567' }));
    expect(await screen.findByRole('dialog', { name: 'Revoke “Production backend”?' })).toBeInTheDocument();
  });

  it('revokes a key after confirming', async () => {
    const api = new FakeApi()
      .on('GET', '/console/v1/apps/app_1/keys', { body: { keys: [listed] } })
      .on('DELETE', '/console/v1/apps/app_1/keys/key_1', { status: 204 });
    renderApp('/apps/app_1/developers', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke key rk_live_0123' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(api.sent('DELETE', '/console/v1/apps/app_1/keys/key_1')).toHaveLength(1));
  });
});

describe('webhooks', () => {
  it('adds an endpoint subscribed to the chosen events and shows its secret once', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/webhooks', { body: { webhooks: [], pagination: page(0) } })
      .on('POST', '/api/v1/webhooks', (r) => ({ status: 201, body: { webhook: { ...webhook, ...(r.body as object) }, secret: 'whsec_c2VjcmV0' } }));
    renderApp('/apps/app_1/developers?tab=webhooks', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add endpoint' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a webhook endpoint' });
    await user.type(within(dialog).getByLabelText(/^url/i), 'https://example.com/hook');
    // Events read as the API and the payloads spell them. By keyboard: type to filter, arrow down to the first match, Enter takes it.
    await user.type(within(dialog).getByLabelText('Events', { selector: 'input' }), 'CONVERSION_FLAG');
    expect(within(dialog).getByRole('option', { name: 'CONVERSION_FLAGGED' })).toBeInTheDocument();
    expect(within(dialog).queryByText('conversion.flagged')).toBeNull();
    await user.keyboard('{ArrowDown}{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Add endpoint' }));
    const secret = await screen.findByRole('dialog', { name: 'Endpoint added' });
    expect(within(secret).getByText('whsec_c2VjcmV0')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/webhooks')[0]!.body).toEqual({ url: 'https://example.com/hook', events: ['CONVERSION_FLAGGED'] });
  });

  it("lists an endpoint's deliveries with their response codes, and each attempt", async () => {
    const delivery = {
      id: 'dlv_1',
      webhookId: 'wh_1',
      messageId: 'msg_1',
      event: 'WEBHOOK_TEST',
      status: 'PENDING',
      attempts: 2,
      lastResponseStatus: 500,
      lastError: null,
      lastAttemptAt: '2026-11-24T10:00:05.000Z',
      nextAttemptAt: '2026-11-24T10:05:00.000Z',
      createdAt: '2026-11-24T10:00:00.000Z',
      completedAt: null,
    };
    const attempt = (number: number, responseStatus: number | null, error: string | null) => ({
      number,
      startedAt: '2026-11-24T10:00:00.000Z',
      durationMs: 12,
      responseStatus,
      error,
      responseBody: responseStatus ? 'oops' : '',
      responseBodyTruncated: false,
    });
    const api = new FakeApi()
      .on('GET', '/api/v1/webhooks/wh_1', { body: { webhook } })
      .on('GET', '/api/v1/webhooks/wh_1/deliveries', { body: { deliveries: [delivery], pagination: page(1) } })
      .on('GET', '/api/v1/webhooks/wh_1/deliveries/dlv_1', {
        body: { delivery: { ...delivery, payload: { id: 'msg_1', event: 'WEBHOOK_TEST' }, attemptLog: [attempt(1, null, 'connect ECONNREFUSED'), attempt(2, 500, null)] } },
      })
      .on('POST', '/api/v1/webhooks/wh_1/deliveries/dlv_1/retry', { status: 202, body: { delivery } });
    renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    expect(await screen.findByText('500')).toBeInTheDocument();
    // The event as the API says it (and as the body sent has it), not `webhook.test`.
    expect(screen.getByRole('cell', { name: 'WEBHOOK_TEST' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Attempts of delivery dlv_1' }));
    const drawer = await screen.findByRole('dialog', { name: 'Delivery' });
    expect(within(drawer).getByText('WEBHOOK_TEST')).toBeInTheDocument();
    expect(await within(drawer).findByText('connect ECONNREFUSED')).toBeInTheDocument();
    expect(within(drawer).getByText('no answer')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Retry now' }));
    await waitFor(() => expect(api.sent('POST', '/api/v1/webhooks/wh_1/deliveries/dlv_1/retry')).toHaveLength(1));
  });
});
