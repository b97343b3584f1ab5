import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { createRequest, formValuesOf, NEW_CAMPAIGN, updateRequest } from './campaign-request';

describe('the campaign request', () => {
  it('sends levels numbered from 2, a referee reward only when double-sided, and null to remove a cap', () => {
    const values = { ...NEW_CAMPAIGN, name: ' Launch ', levels: [{ amount: 5 }, { amount: '2.5' }], doubleSided: false, capRewards: false };
    expect(createRequest(values)).toEqual({
      name: 'Launch',
      status: 'ACTIVE',
      referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: null,
      levels: [
        { level: 2, amount: 5 },
        { level: 3, amount: 2.5 },
      ],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: null,
      fraud: { flagThreshold: 50 },
      rewardCodeValidityDays: 90,
    });
  });

  it('edits a campaign as it is: a gap in its levels keeps each level its number', () => {
    const c = campaign({ levels: [{ level: 3, amount: 1 }, { level: 2, amount: 4 }], refereeReward: { amount: 5, fulfillmentType: 'GIFT_CARD' }, maxRewardsPerReferrer: 3 });
    const values = formValuesOf(c);
    expect(values.levels).toEqual([{ amount: 4 }, { amount: 1 }]);
    const request = updateRequest(values);
    expect(request.levels).toEqual([
      { level: 2, amount: 4 },
      { level: 3, amount: 1 },
    ]);
    expect(request.refereeReward).toEqual({ amount: 5, fulfillmentType: 'GIFT_CARD' });
    expect(request.maxRewardsPerReferrer).toBe(3);
    expect(request).not.toHaveProperty('status');
  });
});

describe('the new campaign form', () => {
  it('creates a double-sided campaign with two levels and opens it', async () => {
    const api = new FakeApi().on('POST', '/api/v1/campaigns', (r) => ({ status: 201, body: { campaign: campaign({ id: 'cmp_new', ...(r.body as object) }) } }));
    api.on('GET', '/api/v1/campaigns/cmp_new', { body: { campaign: campaign({ id: 'cmp_new', name: 'Friends' }) } });
    const { location } = renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Friends');
    await user.clear(screen.getByLabelText(/referrer reward amount/i));
    await user.type(screen.getByLabelText(/referrer reward amount/i), '15');
    await user.click(screen.getByLabelText(/double-sided/i));
    await user.clear(screen.getByLabelText(/referee reward amount/i));
    await user.type(screen.getByLabelText(/referee reward amount/i), '7.5');
    await user.click(screen.getByRole('button', { name: 'Add level 2' }));
    await user.type(screen.getByLabelText(/level 2 amount/i), '{backspace}4');
    await user.click(screen.getByRole('button', { name: 'Add level 3' }));
    await user.type(screen.getByLabelText(/level 3 amount/i), '{backspace}2');
    await user.click(screen.getByLabelText(/cap the rewards/i));
    await user.clear(screen.getByLabelText(/most rewards per referrer/i));
    await user.type(screen.getByLabelText(/most rewards per referrer/i), '20');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(location()).toBe('/apps/app_1/campaigns/cmp_new'));
    const sent = api.sent('POST', '/api/v1/campaigns')[0]!;
    expect(sent.body).toEqual({
      name: 'Friends',
      status: 'ACTIVE',
      referrerReward: { amount: 15, fulfillmentType: 'DISCOUNT_CODE' },
      refereeReward: { amount: 7.5, fulfillmentType: 'DISCOUNT_CODE' },
      levels: [
        { level: 2, amount: 4 },
        { level: 3, amount: 2 },
      ],
      attributionWindowDays: 30,
      maxRewardsPerReferrer: 20,
      fraud: { flagThreshold: 50 },
      rewardCodeValidityDays: 90,
    });
    expect(sent.headers.get('X-CSRF-Token')).toBe('csrf-123');
    expect(sent.headers.get('X-App-Id')).toBe('app_1');
  });

  it("puts the API's field errors on the fields they name", async () => {
    const api = new FakeApi().on(
      'POST',
      '/api/v1/campaigns',
      apiError(400, 'VALIDATION_ERROR', 'body.levels.0.amount: Too big', {
        issues: [
          { field: 'body.levels.0.amount', message: 'Must be at most 1000000000' },
          { field: 'body.fraud.flagThreshold', message: 'Must be at most 100' },
        ],
      }),
    );
    renderApp('/apps/app_1/campaigns/new', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Big');
    await user.click(screen.getByRole('button', { name: 'Add level 2' }));
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    const level = await screen.findByLabelText(/level 2 amount/i);
    await waitFor(() => expect(level).toHaveAttribute('aria-invalid', 'true'));
    expect(level.closest('.mantine-InputWrapper-root')!).toHaveTextContent('Must be at most 1000000000');
    const fraud = screen.getByRole('group', { name: 'Fraud' });
    expect(within(fraud).getByRole('alert')).toHaveTextContent('Must be at most 100');
  });
});

describe('an existing campaign', () => {
  it('is paused after confirming, with a PATCH of its status only', async () => {
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns/cmp_1', { body: { campaign: campaign() } })
      .on('PATCH', '/api/v1/campaigns/cmp_1', { body: { campaign: campaign({ status: 'PAUSED' }) } });
    renderApp('/apps/app_1/campaigns/cmp_1', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    const dialog = await screen.findByRole('dialog', { name: /pause “launch”/i });
    await user.click(within(dialog).getByRole('button', { name: 'Pause' }));
    await screen.findByRole('button', { name: 'Resume' });
    expect(api.sent('PATCH', '/api/v1/campaigns/cmp_1').map((r) => r.body)).toEqual([{ status: 'PAUSED' }]);
  });

  it('is read-only for a VIEWER: no status actions, no save', async () => {
    const api = new FakeApi().on('GET', '/api/v1/campaigns/cmp_1', { body: { campaign: campaign() } });
    renderApp('/apps/app_1/campaigns/cmp_1', { session: sessionFor('VIEWER'), api });
    await screen.findByRole('heading', { name: 'Launch' });
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'End' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save changes' })).toBeNull();
    expect(screen.getByLabelText(/^name/i)).toBeDisabled();
  });
});
