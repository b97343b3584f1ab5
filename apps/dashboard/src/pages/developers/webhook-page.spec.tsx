import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Webhook, WebhookDelivery } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

const webhook: Webhook = {
  id: 'wh_1',
  url: 'https://example.com/hook',
  events: ['REWARD_CREATED'],
  description: 'CRM',
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

function endpointApi() {
  return new FakeApi()
    .on('GET', '/api/v1/webhooks/wh_1', { body: { webhook } })
    .on('GET', '/api/v1/webhooks/wh_1/deliveries', { body: { deliveries: [], pagination: page(0) } })
    .on('PATCH', '/api/v1/webhooks/wh_1', (r) => ({ body: { webhook: { ...webhook, ...(r.body as object) } } }))
    .on('POST', '/api/v1/webhooks/wh_1/secret/rotate', { body: { webhook: { ...webhook, previousSecretExpiresAt: '2026-11-25T10:00:00.000Z' }, secret: 'whsec_bmV3' } })
    .on('POST', '/api/v1/webhooks/wh_1/test', { status: 202, body: { delivery: {} } });
}

describe('a webhook endpoint', () => {
  it('is edited (events replace the list, an emptied description is removed) and disabled', async () => {
    const api = endpointApi();
    renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    const description = await screen.findByLabelText('Description');
    await waitFor(() => expect(description).toHaveValue('CRM'));
    await user.clear(description);
    await user.type(screen.getByLabelText('Events', { selector: 'input' }), 'level{ArrowDown}{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save endpoint' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/webhooks/wh_1')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/webhooks/wh_1')[0]!.body).toEqual({ url: 'https://example.com/hook', events: ['REWARD_CREATED', 'LEVEL_UP'], description: null });

    await user.click(screen.getByRole('switch', { name: 'Enabled' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/webhooks/wh_1')).toHaveLength(2));
    expect(api.sent('PATCH', '/api/v1/webhooks/wh_1')[1]!.body).toEqual({ enabled: false });
  });

  it('rotates its secret after confirming and shows the new one once; sends a test event', async () => {
    const api = endpointApi();
    renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Rotate secret' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Rotate the signing secret?' })).getByRole('button', { name: 'Rotate secret' }));
    const shown = await screen.findByRole('dialog', { name: 'New signing secret' });
    expect(within(shown).getByText('whsec_bmV3')).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByText('whsec_bmV3')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(api.sent('POST', '/api/v1/webhooks/wh_1/test')).toHaveLength(1));
    expect(api.sent('POST', '/api/v1/webhooks/wh_1/secret/rotate')).toHaveLength(1);
  });

  it('sends a test event to a disabled endpoint too, and follows a delivery being tried until it ends', async () => {
    let reads = 0;
    const delivery: WebhookDelivery = {
      id: 'dlv_1',
      webhookId: 'wh_1',
      messageId: 'msg_1',
      event: 'WEBHOOK_TEST',
      status: 'PENDING',
      attempts: 1,
      lastResponseStatus: 503,
      lastError: null,
      lastAttemptAt: '2026-11-24T10:00:00.000Z',
      nextAttemptAt: '2026-11-24T10:00:01.000Z',
      completedAt: null,
      createdAt: '2026-11-24T10:00:00.000Z',
    };
    const api = endpointApi()
      .on('GET', '/api/v1/webhooks/wh_1', { body: { webhook: { ...webhook, enabled: false, disabledReason: 'MANUAL', disabledAt: '2026-11-24T09:00:00.000Z' } } })
      .on('GET', '/api/v1/webhooks/wh_1/deliveries', () => {
        reads += 1;
        const now = reads === 1 ? delivery : { ...delivery, status: 'SUCCEEDED' as const, attempts: 2, lastResponseStatus: 200, nextAttemptAt: null, completedAt: '2026-11-24T10:00:01.500Z' };
        return { body: { deliveries: [now], pagination: page(1) } };
      });
    renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('OWNER'), api });
    const log = await screen.findByRole('table');
    expect(await within(log).findByText('503')).toBeInTheDocument();
    expect(within(log).getByText('pending')).toBeInTheDocument();
    // Read again by itself while PENDING: no reload needed to see the retry land.
    expect(await within(log).findByText('200')).toBeInTheDocument();
    expect(within(log).getByText('succeeded')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Send test event' }));
    await waitFor(() => expect(api.sent('POST', '/api/v1/webhooks/wh_1/test')).toHaveLength(1));
  });

  it('is deleted by its OWNER after confirming, back to the list', async () => {
    const api = endpointApi()
      .on('DELETE', '/api/v1/webhooks/wh_1', { status: 204 })
      .on('GET', '/api/v1/webhooks', { body: { webhooks: [], pagination: page(0) } });
    const { location } = renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete endpoint' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this endpoint?' });
    expect(confirm).toHaveTextContent('https://example.com/hook');
    expect(api.sent('DELETE', '/api/v1/webhooks/wh_1')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete endpoint' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/developers?tab=webhooks'));
    expect(api.sent('DELETE', '/api/v1/webhooks/wh_1')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
    expect(await screen.findByText('No endpoints')).toBeInTheDocument();
    // The deleted endpoint is not read again (it would be a 404).
    expect(api.sent('GET', '/api/v1/webhooks/wh_1')).toHaveLength(1);
  });

  it('offers no delete to a MANAGER', async () => {
    renderApp('/apps/app_1/developers/webhooks/wh_1', { session: sessionFor('MANAGER'), api: endpointApi() });
    expect(await screen.findByRole('heading', { name: 'Webhook endpoint' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete endpoint' })).toBeNull();
  });
});
