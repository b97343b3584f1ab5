import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { StripeIntegrationState } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { campaign, sessionFor, stripeEvent } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { connectErrors } from './stripe-connection';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ENDPOINT = 'https://ris.example.com/api/v1/integrations/stripe/events/stripe_1';
const connected: StripeIntegrationState = {
  connected: true,
  integration: { id: 'stripe_1', campaignId: 'cmp_1', endpointUrl: ENDPOINT, connectedAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z' },
};
const notConnected: StripeIntegrationState = { connected: false, integration: null };

/** The page's reads: the connection, the campaigns to pick from, the events (none unless given). */
function integrationsApi(state: StripeIntegrationState, events = [stripeEvent()]) {
  return new FakeApi()
    .on('GET', '/api/v1/integrations/stripe', { body: state })
    .on('GET', '/api/v1/integrations/stripe/events', { body: { events, pagination: page(events.length) } })
    .on('GET', '/api/v1/campaigns', { body: { campaigns: [campaign()], pagination: page(1) } });
}

describe('the integrations page', () => {
  it("refuses what is not a Stripe signing secret on its field, as the API would", () => {
    expect(connectErrors({ webhookSecret: '', campaignId: '' })).toEqual({ webhookSecret: 'Required', campaignId: 'Pick the campaign' });
    expect(connectErrors({ webhookSecret: 'sk_live_123', campaignId: 'cmp_1' }).webhookSecret).toMatch(/^A Stripe signing secret starts with whsec_/);
    expect(connectErrors({ webhookSecret: ` ${SECRET} `, campaignId: 'cmp_1' })).toEqual({});
  });

  it('connects Stripe for an OWNER with the secret pasted and the campaign picked, then shows the endpoint URL to copy and forgets the secret', async () => {
    const api = integrationsApi(notConnected, []).on('PUT', '/api/v1/integrations/stripe', { status: 201, body: connected });
    const user = userEvent.setup();
    renderApp('/apps/app_1/integrations', { session: sessionFor('OWNER'), api });
    const form = await screen.findByRole('form', { name: 'Connect Stripe' });
    expect(screen.getByText('not connected')).toBeInTheDocument();
    const secret = within(form).getByLabelText(/Webhook signing secret/);
    // A password field: the secret is not shown as it is typed.
    expect(secret).toHaveAttribute('type', 'password');
    await user.type(secret, 'sk_live_123');
    await user.click(within(form).getByRole('combobox', { name: /Campaign/ }));
    await user.click(await screen.findByRole('option', { name: 'Launch' }));
    await user.click(within(form).getByRole('button', { name: 'Connect Stripe' }));
    expect(await within(form).findByText(/^A Stripe signing secret starts with whsec_/)).toBeInTheDocument();
    expect(api.sent('PUT', '/api/v1/integrations/stripe')).toEqual([]);
    await user.clear(secret);
    await user.type(secret, SECRET);
    await user.click(within(form).getByRole('button', { name: 'Connect Stripe' }));
    await vi.waitFor(() => expect(api.sent('PUT', '/api/v1/integrations/stripe').map((r) => r.body)).toEqual([{ webhookSecret: SECRET, campaignId: 'cmp_1' }]));
    expect(api.sent('PUT', '/api/v1/integrations/stripe')[0]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
    expect(await screen.findByLabelText('Endpoint URL')).toHaveTextContent(ENDPOINT);
    expect(screen.getByRole('button', { name: 'Copy the endpoint URL' })).toBeInTheDocument();
    expect(screen.getByText('connected')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Launch' })).toHaveAttribute('href', '/apps/app_1/campaigns/cmp_1');
    // The secret is nowhere on the page once sent: the form is empty again, to replace it.
    expect(screen.getByRole('form', { name: 'Replace the Stripe secret or campaign' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Webhook signing secret/)).toHaveValue('');
    expect(document.body.innerHTML).not.toContain(SECRET);
  });

  it('lists the events received by status in the URL, unmatched ones with why', async () => {
    const unmatched = stripeEvent({ id: 'evt_2', status: 'UNMATCHED', conversionId: null, reasonCode: 'UNKNOWN_REFERRAL_CODE', reason: 'No referral code NOPE of the campaign.' });
    const api = integrationsApi(connected, [stripeEvent(), unmatched]);
    const user = userEvent.setup();
    const { location } = renderApp('/apps/app_1/integrations', { session: sessionFor('VIEWER'), api });
    const table = await screen.findByRole('table', { name: 'Stripe events received' });
    const rows = within(table).getAllByTestId('stripe-event');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['MATCHED', 'UNMATCHED']);
    expect(rows[0]).toHaveTextContent(/checkout\.session\.completed.*evt_1.*test mode.*matched.*CONVERSION_RECORDED.*conversion conv_1/);
    expect(rows[1]).toHaveTextContent(/unmatched.*No referral code NOPE of the campaign\..*UNKNOWN_REFERRAL_CODE/);

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: /^Unmatched/ }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/integrations?status=UNMATCHED'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/integrations/stripe/events').at(-1)!.query.get('status')).toBe('UNMATCHED'));
  });

  it('shows a VIEWER or MANAGER the connection without a way to change it', async () => {
    for (const role of ['VIEWER', 'MANAGER'] as const) {
      const { unmount } = renderApp('/apps/app_1/integrations', { session: sessionFor(role), api: integrationsApi(connected) });
      expect(await screen.findByLabelText('Endpoint URL')).toHaveTextContent(ENDPOINT);
      expect(screen.queryByRole('form')).toBeNull();
      expect(screen.queryByRole('button', { name: 'Disconnect' })).toBeNull();
      unmount();
    }
    renderApp('/apps/app_1/integrations', { session: sessionFor('VIEWER'), api: integrationsApi(notConnected, []) });
    expect(await screen.findByText('Not connected. An owner of the app connects it.')).toBeInTheDocument();
    expect(await screen.findByText('No events')).toBeInTheDocument();
  });

  it('disconnects after confirming', async () => {
    const api = integrationsApi(connected).on('DELETE', '/api/v1/integrations/stripe', { status: 204 });
    const user = userEvent.setup();
    renderApp('/apps/app_1/integrations', { session: sessionFor('OWNER'), api });
    await user.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const confirm = await screen.findByRole('dialog', { name: 'Disconnect Stripe?' });
    expect(api.sent('DELETE', '/api/v1/integrations/stripe')).toEqual([]);
    api.on('GET', '/api/v1/integrations/stripe', { body: notConnected });
    await user.click(within(confirm).getByRole('button', { name: 'Disconnect Stripe' }));
    await vi.waitFor(() => expect(api.sent('DELETE', '/api/v1/integrations/stripe')).toHaveLength(1));
    expect(await screen.findByRole('form', { name: 'Connect Stripe' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Endpoint URL')).toBeNull();
  });
});
