import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MarketplaceListing, MarketplaceRedemption, MarketplaceSettlements } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { instantOf } from '../../../ui/local-time';
import { settlementRows } from './settlements-panel';
import { NEW_LISTING, createListingRequest, discountText, listingFieldOf, listingFormValues, updateListingRequest } from './listing-request';

const listing: MarketplaceListing = {
  id: 'lst_1',
  title: '15 % off coffee',
  description: '',
  coinCost: 500,
  tokenCost: 0,
  quantity: 40,
  discount: { type: 'PERCENT', value: 15 },
  expiresAt: null,
  published: true,
  codeValidityDays: 90,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const code: MarketplaceRedemption = {
  id: 'mrd_1',
  listingId: 'lst_1',
  userId: null,
  discountCode: 'MKT-7KQ2-MW9D-X3TB',
  expiresAt: '2027-02-22T10:00:00.000Z',
  createdAt: '2026-11-24T10:00:00.000Z',
  status: 'ACTIVE',
  appId: 'app_partner',
  listingAppId: 'app_1',
  listingTitle: '15 % off coffee',
  coinCost: 500,
  tokenCost: 0,
  discount: { type: 'PERCENT', value: 15 },
};
const settlements: MarketplaceSettlements = {
  as: 'provider',
  totals: { redemptions: 3, coins: 1500, tokens: 0 },
  counterparts: [{ appId: 'app_partner', totals: { redemptions: 3, coins: 1500, tokens: 0 }, listings: [{ listingId: 'lst_1', title: '15 % off coffee', totals: { redemptions: 3, coins: 1500, tokens: 0 } }] }],
};

function marketplaceApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/marketplace/listings', { body: { listings: [listing], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/marketplace/listings/lst_1', { body: { listing } })
    .on('GET', '/api/v1/incentives/marketplace/redemptions', { body: { redemptions: [code], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/marketplace/settlements', (r) => ({ body: { ...settlements, as: r.query.get('as') } }));
}

describe('a listing in the form', () => {
  it('sends its discount and stock, an end only when given, and removes an emptied end', () => {
    expect([discountText({ type: 'PERCENT', value: 15 }), discountText({ type: 'FIXED', value: 5 })]).toEqual(['15 % off', '5 off']);
    const values = { ...NEW_LISTING, title: ' Coffee ', discountType: 'FIXED' as const, discountValue: '2.5', unlimited: false, stock: 20 };
    expect(createListingRequest(values)).toEqual({ title: 'Coffee', description: '', coinCost: 500, tokenCost: 0, quantity: 20, discount: { type: 'FIXED', value: 2.5 }, published: false, codeValidityDays: 90 });
    expect(createListingRequest({ ...values, expiresAt: '2027-01-01T12:00' }).expiresAt).toBe(instantOf('2027-01-01T12:00'));
    expect(updateListingRequest(listingFormValues(listing)).expiresAt).toBeNull();
    expect([listingFieldOf('quantity'), listingFieldOf('discount.value'), listingFieldOf('title')]).toEqual(['stock', 'discountValue', 'title']);
  });

  it('adds up nothing itself: one row per partner and listing, as the API totals them', () => {
    expect(settlementRows(settlements)).toEqual([{ key: 'app_partner:lst_1', appId: 'app_partner', listingId: 'lst_1', title: '15 % off coffee', redemptions: 3, coins: 1500, tokens: 0 }]);
  });
});

describe('the marketplace page', () => {
  it('pauses a listing, and shows an end in the past refused on its field (422 EXPIRES_AT_PASSED)', async () => {
    const api = marketplaceApi()
      .on('PATCH', '/api/v1/incentives/marketplace/listings/lst_1', (r) =>
        'title' in (r.body as object)
          ? apiError(422, 'EXPIRES_AT_PASSED', 'expiresAt must be in the future.', { issues: [{ field: 'body.expiresAt', message: 'must be in the future' }] })
          : { body: { listing: { ...listing, published: false } } },
      );
    renderApp('/apps/app_1/marketplace', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('switch', { name: '15 % off coffee published' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/marketplace/listings/lst_1')[0]?.body).toEqual({ published: false }));
    await user.click(screen.getByRole('button', { name: 'Edit 15 % off coffee' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit listing' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Title/ })).toHaveValue('15 % off coffee'));
    await user.click(within(dialog).getByRole('button', { name: 'Save listing' }));
    expect(await within(dialog).findByText('must be in the future')).toBeInTheDocument();
  });

  it('lists the codes issued to other apps’ users, and the settlements per partner app and listing on either side', async () => {
    const { location } = renderApp('/apps/app_1/marketplace?tab=redemptions', { session: sessionFor('VIEWER'), api: marketplaceApi() });
    const codes = await screen.findByRole('table', { name: 'Codes issued for your listings' });
    expect(within(codes).getByText('MKT-7KQ2-MW9D-X3TB')).toBeInTheDocument();
    expect(within(codes).getByText('app_partner')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Settlements' }));
    const perListing = await screen.findByRole('table', { name: 'Settlements per partner app and listing' });
    expect(within(perListing).getByText('1,500')).toBeInTheDocument();
    expect(screen.getByLabelText('Codes issued', { selector: 'p' })).toHaveTextContent('3');
    await user.click(screen.getByText('Your users’ codes'));
    await waitFor(() => expect(location()).toBe('/apps/app_1/marketplace?tab=settlements&as=redeemer'));
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
