import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { catalogItem, redemption, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { costText, stockText } from '../cost-fields';
import { NEW_ITEM, itemFieldOf, itemFormValues, itemRequest } from './item-request';

const tote = catalogItem();
const mug = catalogItem({ id: 'itm_2', name: 'Mug', coinCost: 0, tokenCost: 2, inventory: -1, published: false });

function catalogApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/catalog', { body: { items: [tote, mug], pagination: page(2) } })
    .on('GET', '/api/v1/incentives/catalog/itm_1', { body: { item: tote } })
    .on('GET', '/api/v1/incentives/redemptions', { body: { redemptions: [redemption(), redemption({ id: 'rdm_2', userId: 'bob', status: 'FULFILLED', fulfilledAt: '2026-11-25T10:00:00.000Z' })], pagination: page(2) } });
}

describe('catalog items in words and in the form', () => {
  it('say costs and stock, and send -1 for unlimited stock', () => {
    expect([costText(tote), costText(mug), costText({ coinCost: 0, tokenCost: 0 }), costText({ coinCost: 1200, tokenCost: 3 })]).toEqual(['300 coins', '2 tokens', 'free', '1,200 coins + 3 tokens']);
    expect([stockText(-1), stockText(0), stockText(5)]).toEqual(['unlimited', 'none left', '5 left']);
    expect(itemRequest({ ...NEW_ITEM, name: ' Cap ', coinCost: '50' })).toEqual({ name: 'Cap', description: '', coinCost: 50, tokenCost: 0, inventory: -1, published: false });
    expect(itemRequest({ ...itemFormValues(tote), unlimited: false, stock: 3 }).inventory).toBe(3);
    expect(itemFormValues(mug)).toMatchObject({ unlimited: true });
    expect(itemFieldOf('inventory')).toBe('stock');
  });
});

describe('the catalog page', () => {
  it('lists items with their cost, stock and publication; a VIEWER changes nothing', async () => {
    renderApp('/apps/app_1/catalog', { session: sessionFor('VIEWER'), api: catalogApi() });
    const table = await screen.findByRole('table', { name: 'Catalog items' });
    expect(within(table).getByText('12 left')).toBeInTheDocument();
    expect(within(table).getByText('unlimited')).toBeInTheDocument();
    expect(within(table).getByText('unpublished')).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByRole('button', { name: /new item|edit|delete/i })).toBeNull();
  });

  it('publishes an item with its switch, edits its stock, and deletes one after confirming', async () => {
    const api = catalogApi()
      .on('PATCH', '/api/v1/incentives/catalog/itm_2', { body: { item: { ...mug, published: true } } })
      .on('PATCH', '/api/v1/incentives/catalog/itm_1', (r) => ({ body: { item: { ...tote, ...(r.body as object) } } }))
      .on('DELETE', '/api/v1/incentives/catalog/itm_2', { status: 204 });
    renderApp('/apps/app_1/catalog?edit=itm_1', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: 'Units in stock' })).toHaveValue('12'));
    await user.clear(within(dialog).getByRole('textbox', { name: 'Units in stock' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Units in stock' }), '40');
    await user.click(within(dialog).getByRole('button', { name: 'Save item' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/catalog/itm_1')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/incentives/catalog/itm_1')[0]!.body).toMatchObject({ inventory: 40, published: true, coinCost: 300 });

    await user.click(await screen.findByRole('switch', { name: 'Mug published' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/catalog/itm_2')[0]?.body).toEqual({ published: true }));

    await user.click(screen.getByRole('button', { name: 'Delete Mug' }));
    await user.click(await screen.findByRole('button', { name: 'Delete item' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/incentives/catalog/itm_2')).toHaveLength(1));
  });

  it('fulfils a pending redemption, and cancels one with the refund said; a finished one has no control', async () => {
    let cancelled = false;
    const api = catalogApi().on('PATCH', '/api/v1/incentives/redemptions/rdm_1', (r) => {
      const status = (r.body as { status: string }).status;
      if (status === 'CANCELLED') cancelled = true;
      return { body: { redemption: redemption({ status: status as 'FULFILLED' }) } };
    });
    const { location } = renderApp('/apps/app_1/catalog?tab=redemptions&status=PENDING', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Redemptions' });
    expect(api.sent('GET', '/api/v1/incentives/redemptions')[0]!.query.get('status')).toBe('PENDING');
    expect(screen.queryByRole('button', { name: /redemption of Tote bag by bob/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel the redemption of Tote bag by ana' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel “Tote bag” for ana?' });
    expect(confirm).toHaveTextContent('300 coins go back to ana');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel redemption' }));
    await waitFor(() => expect(cancelled).toBe(true));
    expect(await screen.findByText('Cancelled: 300 coins refunded to ana, the unit restocked.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ana' })).toHaveAttribute('href', '/apps/app_1/users?userId=ana&tab=catalog');
    expect(location()).toBe('/apps/app_1/catalog?tab=redemptions&status=PENDING');
  });

  it("shows the API's refusal of a move (409 INVALID_TRANSITION)", async () => {
    const api = catalogApi().on('PATCH', '/api/v1/incentives/redemptions/rdm_1', apiError(409, 'INVALID_TRANSITION', 'Only a PENDING redemption can be fulfilled or cancelled.'));
    renderApp('/apps/app_1/catalog?tab=redemptions', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fulfil the redemption of Tote bag by ana' }));
    await user.click(await screen.findByRole('button', { name: 'Fulfil' }));
    expect(await screen.findByText('Only a PENDING redemption can be fulfilled or cancelled.')).toBeInTheDocument();
  });
});
