import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, page } from '../test/fake-api';
import { sessionFor } from '../test/fixtures';
import { renderApp } from '../test/render-app';
import { patchSearch, readSearch } from './search-state';

describe('filters in the URL', () => {
  it('read absent and empty values as none', () => {
    expect(readSearch(new URLSearchParams('status=PAID&userId='), ['status', 'userId', 'page'])).toEqual({ status: 'PAID', userId: null, page: null });
  });

  it('go back to page 1 when a filter changes, but not when a panel opens', () => {
    const current = new URLSearchParams('status=PAID&page=3');
    expect(patchSearch(current, { status: 'CANCELLED' }).toString()).toBe('status=CANCELLED');
    expect(patchSearch(current, { reward: 'rwd_1' }).toString()).toBe('status=PAID&page=3&reward=rwd_1');
    expect(patchSearch(current, { page: 4 }).toString()).toBe('status=PAID&page=4');
    expect(patchSearch(current, { status: null }).toString()).toBe('');
  });

  it('round-trip on a page: the URL sets the request, a new filter sets the URL and the next request', async () => {
    const api = new FakeApi().on('GET', '/api/v1/rewards', (r) => ({ body: { rewards: [], pagination: page(60, Number(r.query.get('page') ?? 1)) } }));
    const { location } = renderApp('/apps/app_1/rewards?status=PENDING&userId=ana&page=2', { session: sessionFor('VIEWER'), api });
    await waitFor(() => expect(api.sent('GET', '/api/v1/rewards')).toHaveLength(1));
    const first = api.sent('GET', '/api/v1/rewards')[0]!.query;
    expect([first.get('status'), first.get('userId'), first.get('page')]).toEqual(['PENDING', 'ana', '2']);
    expect(await screen.findByLabelText(/user id/i)).toHaveValue('ana');

    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Fulfilment', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Gift card' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/rewards?status=PENDING&userId=ana&fulfillmentType=GIFT_CARD'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/rewards')).toHaveLength(2));
    const second = api.sent('GET', '/api/v1/rewards')[1]!.query;
    expect([second.get('fulfillmentType'), second.get('page')]).toEqual(['GIFT_CARD', '1']);
  });

  it('page through a list with ?page=', async () => {
    const reward = (id: string) => ({
      id,
      userId: 'ana',
      campaignId: 'cmp_1',
      referralId: 'ref_1',
      conversionId: 'conv_1',
      side: 'REFERRER',
      level: 1,
      amount: 10,
      fulfillmentType: 'DISCOUNT_CODE',
      status: 'APPROVED',
      discountCode: null,
      expiresAt: null,
      claimedAt: null,
      redeemedAt: null,
      createdAt: '2026-11-24T10:00:00.000Z',
    });
    const api = new FakeApi().on('GET', '/api/v1/rewards', (r) => ({ body: { rewards: [reward(`rwd_p${r.query.get('page')}`)], pagination: page(60, Number(r.query.get('page'))) } }));
    const { location } = renderApp('/apps/app_1/rewards?status=APPROVED', { session: sessionFor('VIEWER'), api });
    await screen.findByText('60 rewards');
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(location()).toBe('/apps/app_1/rewards?status=APPROVED&page=2'));
    await waitFor(() => expect(api.sent('GET', '/api/v1/rewards').map((r) => r.query.get('page'))).toEqual(['1', '2']));
  });
});
