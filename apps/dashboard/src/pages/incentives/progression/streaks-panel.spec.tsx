import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Badge, MilestoneDefinition, StreakDefinition } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { incentiveAction, sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { NEW_MILESTONE, createMilestoneRequest, milestoneCondition, milestoneFormValues, updateMilestoneRequest } from './progression-request';
import { NEW_STREAK, NEW_STREAK_REWARD, createStreakRequest, freezesRule, rewardLengthRule, streakFormValues, streakRewardsText, updateStreakRequest } from './streak-request';

const gold: Badge = { key: 'gold', name: 'Gold', description: null, imageUrl: null, createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z' };
const dailyLogin: StreakDefinition = {
  key: 'daily_login',
  name: 'Daily login',
  period: 'DAILY',
  actionKeys: ['login'],
  freezesPerMonth: 2,
  rewards: [
    { length: 7, coins: 200, xp: 0, tokens: 0, badgeKey: null },
    { length: 3, coins: 50, xp: 10, tokens: 0, badgeKey: 'gold' },
  ],
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};
const weekly: StreakDefinition = { ...dailyLogin, key: 'weekly', name: 'Weekly visit', period: 'WEEKLY', actionKeys: [], freezesPerMonth: 0, rewards: [] };
const threeInARow: MilestoneDefinition = {
  key: 'three_in_a_row',
  name: 'Three in a row',
  description: null,
  metric: 'STREAK',
  streakKey: 'daily_login',
  threshold: 3,
  rewards: { coins: 10, xp: 0, tokens: 0, badgeKey: null },
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

function streaksApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/badges', { body: { badges: [gold], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/actions', { body: { actions: [incentiveAction({ key: 'login', name: 'Log in' }), incentiveAction()], pagination: page(2) } })
    .on('GET', '/api/v1/incentives/streaks/definitions', { body: { streaks: [dailyLogin, weekly], pagination: page(2) } })
    .on('GET', '/api/v1/incentives/streaks/definitions/daily_login', { body: { streak: dailyLogin } })
    .on('GET', '/api/v1/incentives/milestones/definitions', { body: { milestones: [threeInARow], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/milestones/definitions/three_in_a_row', { body: { milestone: threeInARow } });
}

describe('streak definitions in the forms', () => {
  it('say their rewards by length in words, and send the period on creation only', () => {
    expect(streakRewardsText(dailyLogin)).toBe('3 days: 50 coins · 10 XP · badge gold; 7 days: 200 coins');
    expect(streakRewardsText({ period: 'WEEKLY', rewards: [{ length: 1, coins: 5, xp: 0, tokens: 0, badgeKey: null }] })).toBe('1 week: 5 coins');
    expect(streakRewardsText(weekly)).toBe('none');
    expect(
      createStreakRequest({ ...NEW_STREAK, key: ' daily ', name: ' Daily ', period: 'WEEKLY', actionKeys: ['login'], freezesPerMonth: '1', rewards: [{ ...NEW_STREAK_REWARD, length: '3', coins: '50', badgeKey: 'gold' }] }),
    ).toEqual({ key: 'daily', name: 'Daily', period: 'WEEKLY', actionKeys: ['login'], freezesPerMonth: 1, rewards: [{ length: 3, coins: 50, xp: 0, tokens: 0, badgeKey: 'gold' }] });
    const update = updateStreakRequest(streakFormValues(dailyLogin));
    expect(update).toEqual({ name: 'Daily login', actionKeys: ['login'], freezesPerMonth: 2, rewards: dailyLogin.rewards });
    expect(update).not.toHaveProperty('period');
  });

  it('check freezes (0 to 10) and one reward per length from 1 to 3650', () => {
    expect([freezesRule(0), freezesRule('10'), freezesRule(11), freezesRule(''), freezesRule(1.5)]).toEqual([null, null, 'A whole number from 0 to 10', 'A whole number from 0 to 10', 'A whole number from 0 to 10']);
    const values = { ...NEW_STREAK, rewards: [{ ...NEW_STREAK_REWARD, length: 3 }, { ...NEW_STREAK_REWARD, length: '3' }] };
    expect(rewardLengthRule(3, values)).toBe('One reward per length');
    expect(rewardLengthRule(7, values)).toBeNull();
    expect(rewardLengthRule(0, values)).toBe('A whole number from 1 to 3650');
  });

  it('send a milestone’s streak key with metric STREAK only', () => {
    expect(createMilestoneRequest({ ...NEW_MILESTONE, key: 'x', name: 'X', metric: 'STREAK', streakKey: 'daily_login', threshold: 3 })).toMatchObject({ metric: 'STREAK', streakKey: 'daily_login' });
    expect(createMilestoneRequest({ ...NEW_MILESTONE, key: 'x', name: 'X', metric: 'XP', streakKey: 'daily_login' })).not.toHaveProperty('streakKey');
    expect(updateMilestoneRequest({ ...milestoneFormValues(threeInARow), metric: 'EVENTS' })).not.toHaveProperty('streakKey');
    expect(milestoneCondition(threeInARow)).toBe('Longest streak of daily_login reaches 3');
  });
});

describe('the streaks tab of levels & badges', () => {
  it('lists each streak with its period, actions, freezes and rewards; a VIEWER has no control', async () => {
    renderApp('/apps/app_1/progression?tab=streaks', { session: sessionFor('VIEWER'), api: streaksApi() });
    const table = await screen.findByRole('table', { name: 'Streaks' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows[0]).toMatch(/Daily login.*daily_login.*Daily.*login.*2.*3 days: 50 coins · 10 XP · badge gold; 7 days: 200 coins/);
    expect(rows[1]).toMatch(/Weekly visit.*Weekly.*any action.*0.*none/);
    expect(screen.queryByRole('button', { name: /new|edit|delete/i })).toBeNull();
  });

  it('defines a streak with a reward, the API’s field errors on their fields', async () => {
    let refused = true;
    const api = streaksApi().on('POST', '/api/v1/incentives/streaks/definitions', (r) =>
      refused
        ? apiError(400, 'VALIDATION_ERROR', 'body.rewards.0.badgeKey: no such badge', { issues: [{ field: 'body.rewards.0.badgeKey', message: 'no such badge' }] })
        : { status: 201, body: { streak: { ...dailyLogin, ...(r.body as object) } } },
    );
    renderApp('/apps/app_1/progression?tab=streaks', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New streak' }));
    const dialog = await screen.findByRole('dialog', { name: 'New streak' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'weekend');
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Weekend warrior');
    await user.click(within(dialog).getByLabelText('Period', { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Weekly' }));
    await user.clear(within(dialog).getByRole('textbox', { name: /^Freezes per month/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Freezes per month/ }), '1');
    await user.click(within(dialog).getByLabelText('Actions', { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Log in (login)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add reward' }));
    const reward = within(dialog).getByRole('group', { name: 'Reward 1' });
    await user.type(within(reward).getByRole('textbox', { name: /^Length/ }), '4');
    await user.clear(within(reward).getByRole('textbox', { name: 'Coins' }));
    await user.type(within(reward).getByRole('textbox', { name: 'Coins' }), '30');
    await user.click(within(reward).getByLabelText('Badge', { selector: 'input' }));
    await user.click(await within(reward).findByRole('option', { name: 'Gold (gold)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create streak' }));
    expect(await within(dialog).findByText('no such badge')).toBeInTheDocument();
    refused = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create streak' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New streak' })).toBeNull());
    expect(api.sent('POST', '/api/v1/incentives/streaks/definitions').at(-1)!.body).toEqual({
      key: 'weekend',
      name: 'Weekend warrior',
      period: 'WEEKLY',
      actionKeys: ['login'],
      freezesPerMonth: 1,
      rewards: [{ length: 4, coins: 30, xp: 0, tokens: 0, badgeKey: 'gold' }],
    });
  });

  it('edits a streak with its period read-only, and never sends the period', async () => {
    const api = streaksApi().on('PATCH', '/api/v1/incentives/streaks/definitions/daily_login', (r) => ({ body: { streak: { ...dailyLogin, ...(r.body as object) } } }));
    renderApp('/apps/app_1/progression?tab=streaks', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Daily login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit streak' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveValue('Daily login'));
    expect(within(dialog).getByLabelText('Period', { selector: 'input' })).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Period', { selector: 'input' })).toHaveValue('Daily');
    expect(within(dialog).getByRole('textbox', { name: /^Key/ })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Remove reward 2' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save streak' }));
    await waitFor(() => expect(api.sent('PATCH', '/api/v1/incentives/streaks/definitions/daily_login')).toHaveLength(1));
    expect(api.sent('PATCH', '/api/v1/incentives/streaks/definitions/daily_login')[0]!.body).toEqual({
      name: 'Daily login',
      actionKeys: ['login'],
      freezesPerMonth: 2,
      rewards: [{ length: 7, coins: 200, xp: 0, tokens: 0, badgeKey: null }],
    });
  });

  it('deletes a streak after confirming', async () => {
    const api = streaksApi().on('DELETE', '/api/v1/incentives/streaks/definitions/weekly', { status: 204 });
    renderApp('/apps/app_1/progression?tab=streaks', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Weekly visit' }));
    await user.click(await screen.findByRole('button', { name: 'Delete streak' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/incentives/streaks/definitions/weekly')).toHaveLength(1));
    expect(await screen.findByText('Streak “Weekly visit” deleted. Users keep what its rewards paid.')).toBeInTheDocument();
  });

  it('offers the streaks to a milestone of metric STREAK, and sends the one chosen', async () => {
    const api = streaksApi().on('POST', '/api/v1/incentives/milestones/definitions', (r) => ({ status: 201, body: { milestone: { ...threeInARow, ...(r.body as object) } } }));
    renderApp('/apps/app_1/progression?tab=milestones', { session: sessionFor('MANAGER'), api });
    expect(await screen.findByText('Longest streak of daily_login reaches 3')).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'New milestone' }));
    const dialog = await screen.findByRole('dialog', { name: 'New milestone' });
    expect(within(dialog).queryByLabelText(/^Streak/, { selector: 'input' })).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: /^Key/ }), 'week_streak');
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'A week in a row');
    await user.click(within(dialog).getByLabelText('Metric', { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: /^Longest streak/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create milestone' }));
    expect(await within(dialog).findByText('Choose the streak whose longest length counts')).toBeInTheDocument();
    expect(api.sent('POST', '/api/v1/incentives/milestones/definitions')).toHaveLength(0);
    await user.click(within(dialog).getByLabelText(/^Streak/, { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Daily login (daily_login)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create milestone' }));
    await waitFor(() => expect(api.sent('POST', '/api/v1/incentives/milestones/definitions')).toHaveLength(1));
    expect(api.sent('POST', '/api/v1/incentives/milestones/definitions')[0]!.body).toMatchObject({ key: 'week_streak', metric: 'STREAK', streakKey: 'daily_login', threshold: 10 });
  });
});
