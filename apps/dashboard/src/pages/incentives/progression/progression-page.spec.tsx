import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Badge, IncentiveLevel, MilestoneDefinition } from '../../../api/types';
import { FakeApi, apiError, page } from '../../../test/fake-api';
import { sessionFor } from '../../../test/fixtures';
import { renderApp } from '../../../test/render-app';
import { NEW_BADGE, NEW_LEVEL, createBadgeRequest, createLevelRequest, milestoneFormValues, rewardFieldOf, rewardsText, updateMilestoneRequest } from './progression-request';

const gold: Badge = { key: 'gold', name: 'Gold', description: 'Top spender', imageUrl: null, createdAt: '2026-11-01T10:00:00.000Z', updatedAt: '2026-11-01T10:00:00.000Z' };
const silver: IncentiveLevel = { level: 2, name: 'Silver', xpThreshold: 500, rewards: { coins: 100, badgeKey: 'gold', perks: ['free shipping'] } };
const tenOrders: MilestoneDefinition = {
  key: 'ten_orders',
  name: 'Ten orders',
  description: null,
  metric: 'EVENTS',
  streakKey: null,
  threshold: 10,
  rewards: { coins: 0, xp: 50, tokens: 1, badgeKey: null },
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
};

function progressionApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/badges', { body: { badges: [gold], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/levels', { body: { levels: [silver], pagination: page(1) } })
    .on('GET', '/api/v1/incentives/milestones/definitions', { body: { milestones: [tenOrders], pagination: page(1) } });
}

describe('levels, badges and milestones in the forms', () => {
  it('say their rewards in words and send flat form fields as the API nests them', () => {
    expect(rewardsText(silver.rewards)).toBe('100 coins · badge gold · perks: free shipping');
    expect(rewardsText(tenOrders.rewards)).toBe('50 XP · 1 tokens');
    expect(rewardsText({ coins: 0, badgeKey: null, perks: [] })).toBe('nothing');
    expect(createLevelRequest({ ...NEW_LEVEL, level: '3', name: ' Gold ', xpThreshold: '1000', badgeKey: 'gold' })).toEqual({ level: 3, name: 'Gold', xpThreshold: 1000, rewards: { coins: 0, badgeKey: 'gold', perks: [] } });
    expect(createBadgeRequest({ ...NEW_BADGE, key: 'vip', name: 'VIP' })).toEqual({ key: 'vip', name: 'VIP', description: '' });
    expect(updateMilestoneRequest(milestoneFormValues(tenOrders))).toEqual({ name: 'Ten orders', description: '', metric: 'EVENTS', threshold: 10, rewards: { coins: 0, xp: 50, tokens: 1, badgeKey: null } });
    expect(rewardFieldOf('rewards.badgeKey')).toBe('badgeKey');
  });
});

describe('the levels & badges page', () => {
  it('shows the ladder with its rewards; a VIEWER has no control on any tab', async () => {
    renderApp('/apps/app_1/progression', { session: sessionFor('VIEWER'), api: progressionApi() });
    const ladder = await screen.findByRole('table', { name: 'Levels' });
    expect(within(ladder).getByText('100 coins · badge gold · perks: free shipping')).toBeInTheDocument();
    const user = userEvent.setup();
    for (const tab of ['Badges', 'Milestones']) {
      await user.click(screen.getByRole('tab', { name: tab }));
      await screen.findByRole('table', { name: tab });
    }
    expect(screen.getByText('Rewarded events reaches 10')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new|edit|delete|award/i })).toBeNull();
  });

  it('defines a level with a badge, and shows a threshold out of order refused (422 LADDER_ORDER)', async () => {
    let refused = true;
    const api = progressionApi().on('POST', '/api/v1/incentives/levels', (r) =>
      refused ? apiError(422, 'LADDER_ORDER', 'Thresholds must rise with the level.') : { status: 201, body: { level: { ...silver, ...(r.body as object) } } },
    );
    renderApp('/apps/app_1/progression?edit=new', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'New level' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Level' }), '3');
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Gold');
    await user.type(within(dialog).getByRole('textbox', { name: /^XP threshold/ }), '100');
    await user.click(within(dialog).getByLabelText('Badge on reaching it', { selector: 'input' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Gold (gold)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create level' }));
    expect(await screen.findByText('Thresholds must rise with the level.')).toBeInTheDocument();
    refused = false;
    await user.click(within(dialog).getByRole('button', { name: 'Create level' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New level' })).toBeNull());
    expect(api.sent('POST', '/api/v1/incentives/levels').at(-1)!.body).toEqual({ level: 3, name: 'Gold', xpThreshold: 100, rewards: { coins: 0, badgeKey: 'gold', perks: [] } });
  });

  it('awards a badge by hand, and says when the user already held it', async () => {
    let held = false;
    const api = progressionApi().on('POST', '/api/v1/incentives/badges/gold/award', (r) => {
      const answer = { status: held ? 200 : 201, body: { awarded: !held, badge: { ...gold, userId: (r.body as { userId: string }).userId, source: 'MANUAL', sourceId: null, awardedAt: '2026-11-24T10:00:00.000Z' } } };
      held = true;
      return answer;
    });
    renderApp('/apps/app_1/progression?tab=badges', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    for (const expected of ['“Gold” awarded to ana.', 'ana already holds “Gold”.']) {
      await user.click(await screen.findByRole('button', { name: 'Award Gold' }));
      const dialog = await screen.findByRole('dialog', { name: 'Award “Gold”' });
      await user.type(within(dialog).getByRole('textbox', { name: /User id/ }), 'ana');
      await user.click(within(dialog).getByRole('button', { name: 'Award badge' }));
      expect(await screen.findByText(expected)).toBeInTheDocument();
    }
    expect(api.sent('POST', '/api/v1/incentives/badges/gold/award')[0]!.body).toEqual({ userId: 'ana' });
  });

  it('deletes a milestone after confirming', async () => {
    const api = progressionApi().on('DELETE', '/api/v1/incentives/milestones/definitions/ten_orders', { status: 204 });
    renderApp('/apps/app_1/progression?tab=milestones', { session: sessionFor('OWNER'), api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Delete Ten orders' }));
    await user.click(await screen.findByRole('button', { name: 'Delete milestone' }));
    await waitFor(() => expect(api.sent('DELETE', '/api/v1/incentives/milestones/definitions/ten_orders')).toHaveLength(1));
  });

  it('shows who reached what: a badge’s holders, the users at a level, who reached a milestone, each linked from the URL', async () => {
    const api = progressionApi()
      .on('GET', '/api/v1/incentives/badges/gold/holders', {
        body: { holders: [{ userId: 'ana', key: 'gold', name: 'Gold', description: null, imageUrl: null, source: 'LEVEL', sourceId: '2', awardedAt: '2026-11-24T10:00:00.000Z' }], pagination: page(30, 2) },
      })
      .on('GET', '/api/v1/incentives/balances', (r) => ({
        body: { balances: [{ userId: `at-level-${r.query.get('level')}`, coins: 10, tokens: 0, xp: 640, level: 2, levelName: 'Silver', nextLevel: null, progress: 1, perks: [], coinsEarned: 10, rewardedEvents: 1, referrals: 0, updatedAt: null }], pagination: page(1) },
      }))
      .on('GET', '/api/v1/incentives/milestones', { body: { milestones: [{ userId: 'bob', key: 'ten_orders', name: 'Ten orders', metric: 'EVENTS', threshold: 10, reachedAt: '2026-11-24T10:00:00.000Z' }], pagination: page(1) } });
    const first = renderApp('/apps/app_1/progression?tab=badges&holders=gold&holdersPage=2', { session: sessionFor('VIEWER'), api });
    const holders = await screen.findByRole('dialog', { name: 'Holders of gold' });
    expect(await within(holders).findByRole('link', { name: 'ana' })).toHaveAttribute('href', '/apps/app_1/users?userId=ana');
    expect(within(holders).getByText('level 2')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/incentives/badges/gold/holders')[0]!.query.get('page')).toBe('2');
    await userEvent.click(within(holders).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(first.location()).toBe('/apps/app_1/progression?tab=badges'));
    first.unmount();

    renderApp('/apps/app_1/progression', { session: sessionFor('VIEWER'), api });
    await userEvent.click(await screen.findByRole('button', { name: 'Users at level 2' }));
    const atLevel = await screen.findByRole('dialog', { name: 'Users at level 2' });
    expect(await within(atLevel).findByText('at-level-2')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/incentives/balances')[0]!.query.get('sort')).toBe('xp');
    await userEvent.click(within(atLevel).getByRole('button', { name: 'Close' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Milestones' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Who reached Ten orders' }));
    const reached = await screen.findByRole('dialog', { name: 'Who reached ten_orders' });
    expect(await within(reached).findByText('bob')).toBeInTheDocument();
    expect(api.sent('GET', '/api/v1/incentives/milestones')[0]!.query.get('key')).toBe('ten_orders');
  });
});
