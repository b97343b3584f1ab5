import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Answer } from '../../api/types';
import { FakeApi, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';

type Participant = Answer<'/api/v1/participants', 'get'>['participants'][number];

const ann: Participant = {
  userId: 'ann',
  email: 'ann@shop.test',
  referrals: 2,
  conversions: 5,
  rewardValue: 50,
  referredBy: null,
  convertedAt: null,
  coins: 120,
  tokens: 0,
  xp: 40,
  level: 2,
  firstSeenAt: '2026-11-20T10:00:00.000Z',
  lastActivityAt: '2026-11-27T10:00:00.000Z',
};

describe('the participants page', () => {
  it('lists participants with their figures, each opening the user page', async () => {
    const api = new FakeApi().on('GET', '/api/v1/participants', { body: { participants: [ann, { ...ann, userId: 'cy', email: null, referredBy: 'ann', level: 0 }], pagination: page(2) } });
    renderApp('/apps/app_1/participants', { session: sessionFor('VIEWER'), api });
    const table = await screen.findByRole('table', { name: 'Participants' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByRole('link', { name: 'ann' })).toHaveAttribute('href', '/apps/app_1/users?userId=ann');
    expect(within(rows[1]!).getByText('ann@shop.test')).toBeInTheDocument();
    expect(within(rows[2]!).getByRole('link', { name: 'ann' })).toHaveAttribute('href', '/apps/app_1/users?userId=ann');
    expect(api.sent('GET', '/api/v1/participants')[0]!.query.get('sort')).toBe('LAST_ACTIVITY');
  });

  it('searches by a prefix and sorts on the server, keeping both in the URL', async () => {
    const api = new FakeApi().on('GET', '/api/v1/participants', { body: { participants: [ann], pagination: page(1) } });
    const user = userEvent.setup();
    renderApp('/apps/app_1/participants', { session: sessionFor('VIEWER'), api });
    await user.type(await screen.findByRole('textbox', { name: 'Find a participant' }), 'an');
    await user.click(screen.getByRole('button', { name: 'Find' }));
    await vi.waitFor(() => expect(api.sent('GET', '/api/v1/participants').at(-1)!.query.get('q')).toBe('an'));
    await user.click(screen.getByLabelText('Sort by', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Most coins' }));
    await vi.waitFor(() => {
      const last = api.sent('GET', '/api/v1/participants').at(-1)!;
      expect([last.query.get('q'), last.query.get('sort')]).toEqual(['an', 'COINS']);
    });
  });
});
