import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveSettings } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { incentiveAction, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { expiryDaysRule, expiryFormValues, expiryRequest, expiryText } from './expiry-request';

const settings = (overrides: Partial<IncentiveSettings> = {}): IncentiveSettings => ({ coinExpiryDays: 90, tokenExpiryDays: null, updatedAt: '2026-11-20T10:00:00.000Z', ...overrides });

function settingsApi(current: IncentiveSettings = settings()) {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/actions', { body: { actions: [incentiveAction()], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/settings', { body: { settings: current } });
}

describe('the expiry settings in the form', () => {
  it('send both expiries, an empty one as null (never), and check them as the API does', () => {
    expect(expiryFormValues(settings())).toEqual({ coinExpiryDays: 90, tokenExpiryDays: '' });
    expect(expiryRequest({ coinExpiryDays: '30', tokenExpiryDays: '' })).toEqual({ coinExpiryDays: 30, tokenExpiryDays: null });
    expect(expiryRequest({ coinExpiryDays: '', tokenExpiryDays: 365 })).toEqual({ coinExpiryDays: null, tokenExpiryDays: 365 });
    const refused = 'A whole number of days from 1 to 3,650, or empty: never';
    expect([expiryDaysRule(''), expiryDaysRule(1), expiryDaysRule('3650'), expiryDaysRule(0), expiryDaysRule(3651), expiryDaysRule('2.5')]).toEqual([null, null, null, refused, refused, refused]);
    expect([expiryText('coins', null), expiryText('coins', 1), expiryText('tokens', 30)]).toEqual(['coins never expire', 'coins expire after 1 day', 'tokens expire after 30 days']);
  });
});

describe('the engine settings on the actions page', () => {
  it('shows a VIEWER the expiries read-only, without a save button', async () => {
    renderApp('/apps/app_1/actions', { session: sessionFor('VIEWER'), api: settingsApi() });
    const region = await screen.findByRole('region', { name: 'Engine settings' });
    const coins = await within(region).findByRole('textbox', { name: 'Coins expire after (days)' });
    expect(coins).toHaveValue('90');
    expect(coins).toHaveAttribute('readonly');
    const tokens = within(region).getByRole('textbox', { name: 'Tokens expire after (days)' });
    expect(tokens).toHaveValue('');
    expect(tokens).toHaveAttribute('placeholder', 'Never');
    expect(within(region).queryByRole('button', { name: 'Save expiry' })).toBeNull();
  });

  it('saves the expiries for a MANAGER: out of range refused before sending, the API’s refusal on its field, an emptied one sent as never', async () => {
    let refused = true;
    const api = settingsApi().on('PUT', '/api/v1/incentives/settings', (r) =>
      refused
        ? apiError(400, 'VALIDATION_ERROR', 'body.tokenExpiryDays: too big', { issues: [{ field: 'body.tokenExpiryDays', message: 'at most 3650' }] })
        : { body: { settings: { ...(r.body as object), updatedAt: '2026-11-25T10:00:00.000Z' } } },
    );
    renderApp('/apps/app_1/actions', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const region = await screen.findByRole('region', { name: 'Engine settings' });
    const coins = await within(region).findByRole('textbox', { name: 'Coins expire after (days)' });
    const tokens = within(region).getByRole('textbox', { name: 'Tokens expire after (days)' });
    await waitFor(() => expect(coins).toHaveValue('90'));
    await user.clear(coins);
    await user.type(coins, '0');
    await user.click(within(region).getByRole('button', { name: 'Save expiry' }));
    expect(await within(region).findByText('A whole number of days from 1 to 3,650, or empty: never')).toBeInTheDocument();
    expect(api.sent('PUT', '/api/v1/incentives/settings')).toHaveLength(0);

    await user.clear(coins);
    await user.type(tokens, '30');
    await user.click(within(region).getByRole('button', { name: 'Save expiry' }));
    expect(await within(region).findByText('at most 3650')).toBeInTheDocument();
    refused = false;
    await user.click(within(region).getByRole('button', { name: 'Save expiry' }));
    expect(await screen.findByText('Expiry saved: coins never expire, tokens expire after 30 days.')).toBeInTheDocument();
    const sent = api.sent('PUT', '/api/v1/incentives/settings');
    expect(sent.map((r) => r.body)).toEqual([
      { coinExpiryDays: null, tokenExpiryDays: 30 },
      { coinExpiryDays: null, tokenExpiryDays: 30 },
    ]);
    expect(sent[1]!.headers.get('X-CSRF-Token')).toBe('csrf-123');
  });
});
