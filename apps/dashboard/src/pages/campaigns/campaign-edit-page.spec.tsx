import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FakeApi, apiError } from '../../test/fake-api';
import { campaign, sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { instantOf } from '../../ui/local-time';
import { createRequest, formValuesOf, NEW_CAMPAIGN, updateRequest } from './campaign-request';
import { NEW_RULE } from './reward-rule-form';

const fixed = (amount: number) => ({ amount, percent: null, maxAmount: null });

describe('the campaign request', () => {
  it('sends levels numbered from 2, a referee reward only when double-sided, and null to remove a cap', () => {
    const values = { ...NEW_CAMPAIGN, name: ' Launch ', levels: [{ ...NEW_RULE, amount: 5 }, { ...NEW_RULE, amount: '2.5' }], doubleSided: false, capRewards: false };
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
      currency: 'USD',
      holdDays: 0,
    });
  });

  it('edits a campaign as it is: a gap in its levels keeps each level its number', () => {
    const c = campaign({
      levels: [
        { level: 3, ...fixed(1) },
        { level: 2, ...fixed(4) },
      ],
      refereeReward: { ...fixed(5), fulfillmentType: 'GIFT_CARD' },
      maxRewardsPerReferrer: 3,
    });
    const values = formValuesOf(c);
    expect(values.levels.map((l) => [l.kind, l.amount])).toEqual([
      ['FIXED', 4],
      ['FIXED', 1],
    ]);
    const request = updateRequest(values);
    expect(request.levels).toEqual([
      { level: 2, amount: 4 },
      { level: 3, amount: 1 },
    ]);
    expect(request.refereeReward).toEqual({ amount: 5, fulfillmentType: 'GIFT_CARD' });
    expect(request.maxRewardsPerReferrer).toBe(3);
    expect(request).not.toHaveProperty('status');
    // The currency is fixed once the campaign exists; the recurrence is sent, null when there is none.
    expect(request).not.toHaveProperty('currency');
    expect([request.holdDays, request.recurringMonths]).toEqual([0, null]);
  });

  it('edits a percentage campaign as it is, and sends each rule as exactly one of amount and percent', () => {
    const c = campaign({
      currency: 'EUR',
      holdDays: 30,
      recurringMonths: 12,
      referrerReward: { amount: null, percent: 10, maxAmount: 50, fulfillmentType: 'MANUAL' },
      refereeReward: { amount: null, percent: 5, maxAmount: null, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, amount: null, percent: 2.5, maxAmount: null }],
    });
    const values = formValuesOf(c);
    expect(values).toMatchObject({ currency: 'EUR', holdDays: 30, recurringMonths: 12, referrerReward: { kind: 'PERCENT', percent: 10, maxAmount: 50 } });
    expect(updateRequest(values)).toMatchObject({
      referrerReward: { percent: 10, maxAmount: 50, fulfillmentType: 'MANUAL' },
      refereeReward: { percent: 5, fulfillmentType: 'COUPON_CODE' },
      levels: [{ level: 2, percent: 2.5 }],
      holdDays: 30,
      recurringMonths: 12,
    });
    expect(updateRequest(values).refereeReward).not.toHaveProperty('maxAmount');
    expect(updateRequest(values).referrerReward).not.toHaveProperty('amount');
    // Switched back to a fixed amount and no longer recurring: the percent stays in the form but is not sent.
    const switched = { ...values, referrerReward: { ...values.referrerReward, kind: 'FIXED' as const, amount: 7 }, recurringMonths: '' };
    expect(updateRequest(switched)).toMatchObject({ referrerReward: { amount: 7, fulfillmentType: 'MANUAL' }, recurringMonths: null });
    expect(updateRequest(switched).referrerReward).not.toHaveProperty('percent');
  });

  it('sends a landing URL and schedule when set, and leaves them out when empty', () => {
    const values = { ...NEW_CAMPAIGN, name: 'Spring', landingUrl: ' https://shop.example.com/spring ', startsAt: '2030-03-01T09:00', endsAt: '2030-03-31T18:30' };
    expect(createRequest(values)).toMatchObject({
      landingUrl: 'https://shop.example.com/spring',
      startsAt: instantOf('2030-03-01T09:00'),
      endsAt: instantOf('2030-03-31T18:30'),
    });
    const bare = createRequest({ ...NEW_CAMPAIGN, name: 'Bare' });
    expect(Object.keys(bare)).not.toEqual(expect.arrayContaining(['landingUrl']));
    expect(bare).not.toHaveProperty('startsAt');
    expect(bare).not.toHaveProperty('endsAt');
  });

  it('changes a bound only when edited: one shown as read is not sent (the field holds minutes, the API milliseconds), an emptied one is removed', () => {
    const c = campaign({ landingUrl: 'https://shop.example.com/', startsAt: '2030-03-01T09:00:30.500Z', endsAt: '2030-04-01T00:00:00.000Z' });
    const values = formValuesOf(c);
    expect(updateRequest(values)).not.toHaveProperty('startsAt');
    expect(updateRequest(values)).not.toHaveProperty('endsAt');
    expect(updateRequest(values).landingUrl).toBe('https://shop.example.com/');
    const edited = updateRequest({ ...values, startsAt: '2030-03-02T10:00', endsAt: '', landingUrl: '' });
    expect([edited.startsAt, edited.endsAt, edited.landingUrl]).toEqual([instantOf('2030-03-02T10:00'), null, null]);
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
      currency: 'USD',
      holdDays: 0,
    });
    expect(sent.headers.get('X-CSRF-Token')).toBe('csrf-123');
    expect(sent.headers.get('X-App-Id')).toBe('app_1');
  });

  it('creates a EUR campaign paying a percent with a cap in cash, a level in percent, held and recurring', async () => {
    const api = new FakeApi().on('POST', '/api/v1/campaigns', (r) => ({ status: 201, body: { campaign: campaign({ id: 'cmp_new', ...(r.body as object) }) } }));
    api.on('GET', '/api/v1/campaigns/cmp_new', { body: { campaign: campaign({ id: 'cmp_new', name: 'Commission' }) } });
    const { location } = renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Commission');
    const currency = screen.getByRole('combobox', { name: /^currency/i });
    await user.clear(currency);
    await user.type(currency, 'euro');
    await user.click(await screen.findByRole('option', { name: 'EUR — Euro' }));
    await user.click(within(screen.getByRole('radiogroup', { name: 'Referrer reward commission' })).getByLabelText('Percent of sale'));
    await user.clear(screen.getByLabelText(/referrer reward percent/i));
    await user.type(screen.getByLabelText(/referrer reward percent/i), '12.5');
    await user.type(screen.getByLabelText(/referrer reward cap/i), '40');
    // Paid out by the Payouts page.
    await user.click(screen.getByRole('combobox', { name: 'Referrer reward fulfilment' }));
    await user.click(await screen.findByRole('option', { name: 'Cash (paid out)' }));
    await user.click(screen.getByRole('button', { name: 'Add level 2' }));
    await user.click(within(screen.getByRole('radiogroup', { name: 'Level 2 commission' })).getByLabelText('Percent of sale'));
    await user.clear(screen.getByLabelText(/level 2 percent/i));
    await user.type(screen.getByLabelText(/level 2 percent/i), '2.5');
    await user.clear(screen.getByLabelText(/holding period/i));
    await user.type(screen.getByLabelText(/holding period/i), '14');
    await user.type(screen.getByLabelText(/recurring months/i), '12');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(location()).toBe('/apps/app_1/campaigns/cmp_new'));
    expect(api.sent('POST', '/api/v1/campaigns')[0]!.body).toMatchObject({
      name: 'Commission',
      currency: 'EUR',
      referrerReward: { percent: 12.5, maxAmount: 40, fulfillmentType: 'CASH' },
      levels: [{ level: 2, percent: 2.5 }],
      holdDays: 14,
      recurringMonths: 12,
    });
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

  it("puts the API's refusal of a whole rule on the field its kind shows, and of the holding period on its field", async () => {
    const api = new FakeApi().on(
      'POST',
      '/api/v1/campaigns',
      apiError(400, 'VALIDATION_ERROR', 'Invalid request', {
        issues: [
          { field: 'body.referrerReward', message: 'give amount (a fixed reward) or percent (a share of the sale)' },
          { field: 'body.holdDays', message: 'must be at most 365' },
        ],
      }),
    );
    renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Refused');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Referrer reward commission' })).getByLabelText('Percent of sale'));
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));
    const percent = screen.getByLabelText(/referrer reward percent/i);
    await waitFor(() => expect(percent).toHaveAttribute('aria-invalid', 'true'));
    expect(percent.closest('.mantine-InputWrapper-root')!).toHaveTextContent('give amount (a fixed reward) or percent (a share of the sale)');
    expect(screen.getByLabelText(/holding period/i).closest('.mantine-InputWrapper-root')!).toHaveTextContent('must be at most 365');
  });
});

describe('the form refuses what the API would', () => {
  const inputWrapper = (field: HTMLElement) => field.closest('.mantine-InputWrapper-root')!;

  it('shows a negative amount on its field, as typed, and sends nothing', async () => {
    const api = new FakeApi().on('POST', '/api/v1/campaigns', { status: 201, body: { campaign: campaign() } });
    renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Negative');
    const amount = screen.getByLabelText(/referrer reward amount/i);
    await user.clear(amount);
    await user.type(amount, '-5');
    await user.click(screen.getByRole('button', { name: 'Add level 2' }));
    await user.type(screen.getByLabelText(/level 2 amount/i), '{backspace}2000000000');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(amount).toHaveAttribute('aria-invalid', 'true'));
    expect(inputWrapper(amount)).toHaveTextContent('Must not be negative');
    // Neither clamped to 0 on blur nor saved: the value stays what was typed.
    expect(amount).toHaveValue('-5');
    const level = screen.getByLabelText(/level 2 amount/i);
    expect(inputWrapper(level)).toHaveTextContent('Must be at most 1,000,000,000');
    expect(level).toHaveValue('2000000000');
    expect(api.sent('POST', '/api/v1/campaigns')).toEqual([]);
  });

  it('refuses a percent out of (0, 100], a cap of 0, a holding period over a year and 0 recurring months, each on its field', async () => {
    const api = new FakeApi();
    renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Out of range');
    await user.click(within(screen.getByRole('radiogroup', { name: 'Referrer reward commission' })).getByLabelText('Percent of sale'));
    const percent = screen.getByLabelText(/referrer reward percent/i);
    await user.clear(percent);
    await user.type(percent, '150');
    await user.type(screen.getByLabelText(/referrer reward cap/i), '0');
    await user.click(screen.getByRole('button', { name: 'Add level 2' }));
    await user.click(within(screen.getByRole('radiogroup', { name: 'Level 2 commission' })).getByLabelText('Percent of sale'));
    await user.clear(screen.getByLabelText(/level 2 percent/i));
    await user.type(screen.getByLabelText(/level 2 percent/i), '0');
    await user.clear(screen.getByLabelText(/holding period/i));
    await user.type(screen.getByLabelText(/holding period/i), '400');
    await user.type(screen.getByLabelText(/recurring months/i), '0');
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(inputWrapper(percent)).toHaveTextContent('Must be at most 100'));
    expect(inputWrapper(screen.getByLabelText(/referrer reward cap/i))).toHaveTextContent('Must be more than 0');
    expect(inputWrapper(screen.getByLabelText(/level 2 percent/i))).toHaveTextContent('Must be more than 0');
    expect(inputWrapper(screen.getByLabelText(/holding period/i))).toHaveTextContent('Must be at most 365');
    expect(inputWrapper(screen.getByLabelText(/recurring months/i))).toHaveTextContent('Must be at least 1');
    expect(api.sent('POST', '/api/v1/campaigns')).toEqual([]);
  });

  it('refuses a landing URL that is not http(s) and an end before the start, each on its field', async () => {
    const api = new FakeApi();
    renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Backwards');
    await user.type(screen.getByLabelText(/landing url/i), 'ftp://shop.example.com/');
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2030-03-10T09:00' } });
    fireEvent.change(screen.getByLabelText('Ends'), { target: { value: '2030-03-01T09:00' } });
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(inputWrapper(screen.getByLabelText('Ends'))).toHaveTextContent('Must be after the start'));
    expect(inputWrapper(screen.getByLabelText(/landing url/i))).toHaveTextContent('An http or https URL');
    expect(api.sent('POST', '/api/v1/campaigns')).toEqual([]);
  });

  it('sends the landing URL and the schedule typed in', async () => {
    const api = new FakeApi().on('POST', '/api/v1/campaigns', (r) => ({ status: 201, body: { campaign: campaign({ id: 'cmp_new', ...(r.body as object) }) } }));
    api.on('GET', '/api/v1/campaigns/cmp_new', { body: { campaign: campaign({ id: 'cmp_new', name: 'Spring' }) } });
    const { location } = renderApp('/apps/app_1/campaigns/new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/^name/i), 'Spring');
    await user.type(screen.getByLabelText(/landing url/i), 'https://shop.example.com/spring');
    fireEvent.change(screen.getByLabelText('Starts'), { target: { value: '2030-03-01T09:00' } });
    fireEvent.change(screen.getByLabelText('Ends'), { target: { value: '2030-03-31T18:30' } });
    await user.click(screen.getByRole('button', { name: 'Create campaign' }));

    await waitFor(() => expect(location()).toBe('/apps/app_1/campaigns/cmp_new'));
    expect(api.sent('POST', '/api/v1/campaigns')[0]!.body).toMatchObject({
      name: 'Spring',
      landingUrl: 'https://shop.example.com/spring',
      startsAt: instantOf('2030-03-01T09:00'),
      endsAt: instantOf('2030-03-31T18:30'),
    });
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

  it('shows itself scheduled before its start, with its schedule, while its status (and so its actions) stays ACTIVE', async () => {
    const scheduled = campaign({ effectiveStatus: 'SCHEDULED', startsAt: '2030-03-01T09:00:00.000Z', landingUrl: 'https://shop.example.com/' });
    const api = new FakeApi().on('GET', '/api/v1/campaigns/cmp_1', { body: { campaign: scheduled } });
    renderApp('/apps/app_1/campaigns/cmp_1', { session: sessionFor('MANAGER'), api });
    await screen.findByRole('heading', { name: 'Launch' });
    expect(screen.getByText('scheduled')).toBeInTheDocument();
    expect(screen.getByText(/from 2030-03-01/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText(/landing url/i)).toHaveValue('https://shop.example.com/'));
    expect(screen.getByLabelText('Starts')).toHaveValue(formValuesOf(scheduled).startsAt);
  });

  it('shows its rules with its currency, its currency fixed, and saves a change of percent without naming the currency', async () => {
    const c = campaign({ currency: 'EUR', referrerReward: { amount: null, percent: 10, maxAmount: 50, fulfillmentType: 'DISCOUNT_CODE' }, recurringMonths: 6 });
    const api = new FakeApi()
      .on('GET', '/api/v1/campaigns/cmp_1', { body: { campaign: c } })
      .on('PATCH', '/api/v1/campaigns/cmp_1', (r) => ({ body: { campaign: { ...c, ...(r.body as object) } } }));
    renderApp('/apps/app_1/campaigns/cmp_1', { session: sessionFor('MANAGER'), api });
    expect(await screen.findByLabelText('Rewards')).toHaveTextContent('Referrer 10 % (max €50.00) · no holding period · recurring 6 months');
    await waitFor(() => expect(screen.getByLabelText(/referrer reward percent/i)).toHaveValue('10 %'));
    expect(screen.getByRole('combobox', { name: /^currency/i })).toBeDisabled();
    const user = userEvent.setup();
    await user.clear(screen.getByLabelText(/referrer reward percent/i));
    await user.type(screen.getByLabelText(/referrer reward percent/i), '15');
    await user.clear(screen.getByLabelText(/recurring months/i));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/campaigns/cmp_1')).toHaveLength(1));
    const body = api.sent('PATCH', '/api/v1/campaigns/cmp_1')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ referrerReward: { percent: 15, maxAmount: 50 }, recurringMonths: null });
    expect(body).not.toHaveProperty('currency');
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
