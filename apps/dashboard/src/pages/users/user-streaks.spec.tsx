import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { IncentiveBalance, IncentiveTransaction, UserStreak } from '../../api/types';
import { FakeApi, apiError, page } from '../../test/fake-api';
import { sessionFor } from '../../test/fixtures';
import { renderApp } from '../../test/render-app';
import { ledgerNotes } from './ledger-notes';
import { isTimeZone, settingsRequest } from './user-streaks';

const balance: IncentiveBalance = {
  userId: 'ana',
  coins: 120,
  tokens: 3,
  xp: 450,
  level: 0,
  levelName: null,
  nextLevel: null,
  progress: 0,
  perks: [],
  coinsEarned: 120,
  rewardedEvents: 4,
  referrals: 0,
  updatedAt: null,
  pendingCoins: 0,
  pendingTokens: 0,
  expiring: [],
  debtCoins: 0,
  debtTokens: 0,
};
const streak = (overrides: Partial<UserStreak>): UserStreak => ({
  key: 'daily',
  name: 'Daily login',
  period: 'DAILY',
  length: 7,
  longest: 12,
  periodStart: '2026-11-24T05:00:00.000Z',
  extendedThisPeriod: true,
  freezesLeft: 1,
  atRisk: false,
  lastExtendedAt: '2026-11-24T10:00:00.000Z',
  timeZone: 'America/New_York',
  ...overrides,
});
const entry = (overrides: Partial<IncentiveTransaction>): IncentiveTransaction => ({
  id: 'txn_1',
  seq: 1,
  reason: 'ACTION_REWARD',
  cause: 'EVENT',
  coins: 50,
  xp: 120,
  tokens: 0,
  balanceAfter: { coins: 50, xp: 120, tokens: 0 },
  sourceId: 'evt_1',
  actionKey: 'login',
  description: null,
  unrecovered: null,
  reversal: null,
  boost: null,
  streak: null,
  pendingCoins: 0,
  pendingTokens: 0,
  debt: null,
  debtRepaid: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  ...overrides,
});

function userApi() {
  return new FakeApi()
    .on('GET', '/api/v1/incentives/balances/ana', { body: { balance } })
    .on('GET', '/api/v1/incentives/balances/ana/transactions', {
      body: {
        transactions: [
          entry({ id: 'txn_3', seq: 3, reason: 'STREAK_REWARD', cause: 'STREAK', coins: 200, xp: 0, sourceId: 'daily:7', actionKey: null, streak: { key: 'daily', length: 7 } }),
          entry({ id: 'txn_2', seq: 2, coins: 100, xp: 240, boost: { id: 'bst_1', name: 'Double weekend', multiplier: 2 } }),
          entry({}),
        ],
        pagination: page(3),
      },
    })
    .on('GET', /^\/api\/v1\/incentives\/leaderboard\/[^/]+$/, apiError(404, 'NOT_FOUND', 'Not on this board.'))
    .on('GET', '/api/v1/users/ana/stats', apiError(404, 'NOT_FOUND', 'No stats.'))
    .on('GET', '/api/v1/incentives/streaks/ana', {
      body: {
        userId: 'ana',
        streaks: [
          streak({}),
          streak({ key: 'weekly', name: 'Weekly visit', period: 'WEEKLY', length: 3, longest: 3, extendedThisPeriod: false, atRisk: true, freezesLeft: 0, timeZone: 'Europe/Paris' }),
          streak({ key: 'reader', name: 'Reader', length: 0, longest: 1, extendedThisPeriod: false, atRisk: false, lastExtendedAt: null, timeZone: 'UTC' }),
        ],
      },
    })
    .on('GET', '/api/v1/incentives/users/ana/settings', { body: { settings: { userId: 'ana', timeZone: 'America/New_York', updatedAt: '2026-11-20T10:00:00.000Z' } } });
}

describe("a user's streaks and time zone", () => {
  it('check and send a time zone by its IANA name', () => {
    expect([isTimeZone('Europe/Paris'), isTimeZone('UTC'), isTimeZone('Mars/Olympus'), isTimeZone('')]).toEqual([true, true, false, false]);
    expect(settingsRequest({ timeZone: ' Asia/Tokyo ' })).toEqual({ timeZone: 'Asia/Tokyo' });
  });

  it('lists each streak with its length, longest, where it stands this period, freezes left and zone; a VIEWER reads the time zone only', async () => {
    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: userApi() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Streaks' }));
    const table = await screen.findByRole('table', { name: 'Streaks' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/Daily login.*daily · daily.*7 days.*12 days.*extended this period.*1.*America\/New_York/);
    expect(within(rows[0]!).queryByText('at risk')).toBeNull();
    expect(rows[1]).toHaveTextContent(/Weekly visit.*3 weeks.*3 weeks.*at risk.*0.*Europe\/Paris/);
    expect(within(rows[1]!).queryByText('extended this period')).toBeNull();
    expect(rows[2]).toHaveTextContent(/Reader.*not running.*1 day.*—/);
    const zone = screen.getByRole('textbox', { name: 'Time zone' });
    expect(zone).toHaveValue('America/New_York');
    expect(zone).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save time zone' })).toBeNull();
  });

  it('sets the time zone for a MANAGER: a name that is no zone refused before sending, the API’s refusal on the field', async () => {
    let refused = true;
    const api = userApi().on('PUT', '/api/v1/incentives/users/ana/settings', (r) =>
      refused
        ? apiError(400, 'VALIDATION_ERROR', 'body.timeZone: not an IANA time zone', { issues: [{ field: 'body.timeZone', message: 'not an IANA time zone' }] })
        : { body: { settings: { userId: 'ana', ...(r.body as object), updatedAt: '2026-11-25T10:00:00.000Z' } } },
    );
    renderApp('/apps/app_1/users?userId=ana&tab=streaks', { session: sessionFor('MANAGER'), api });
    const user = userEvent.setup();
    const zone = await screen.findByRole('combobox', { name: 'Time zone' });
    await waitFor(() => expect(zone).toHaveValue('America/New_York'));
    expect(screen.getByRole('button', { name: 'Save time zone' })).toBeDisabled();
    await user.clear(zone);
    await user.type(zone, 'Mars/Olympus');
    await user.click(screen.getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('An IANA time zone name, such as Europe/Paris')).toBeInTheDocument();
    expect(api.sent('PUT', '/api/v1/incentives/users/ana/settings')).toHaveLength(0);

    await user.clear(zone);
    await user.type(zone, 'Europe/Paris');
    await user.click(screen.getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('not an IANA time zone')).toBeInTheDocument();
    refused = false;
    await user.click(screen.getByRole('button', { name: 'Save time zone' }));
    expect(await screen.findByText('Time zone of ana set to Europe/Paris.')).toBeInTheDocument();
    expect(api.sent('PUT', '/api/v1/incentives/users/ana/settings').map((r) => r.body)).toEqual([{ timeZone: 'Europe/Paris' }, { timeZone: 'Europe/Paris' }]);
  });
});

describe('the ledger of a user', () => {
  it('names the boost that multiplied an entry and the streak length that paid one', async () => {
    expect(ledgerNotes({ boost: { id: 'bst_1', name: 'Double weekend', multiplier: 2 }, streak: null })).toEqual(['×2 Double weekend']);
    expect(ledgerNotes({ boost: null, streak: { key: 'daily', length: 7 } })).toEqual(['streak daily · 7']);
    expect(ledgerNotes({ boost: null, streak: null })).toEqual([]);

    renderApp('/apps/app_1/users?userId=ana', { session: sessionFor('VIEWER'), api: userApi() });
    const rows = await screen.findAllByTestId('ledger-row');
    expect(rows[0]).toHaveTextContent(/streak reward.*streak daily · 7.*\+200 coins/);
    expect(rows[1]).toHaveTextContent(/event.*×2 Double weekend.*\+100 coins · \+240 XP/);
    expect(rows[2]).not.toHaveTextContent(/×|streak/);
  });
});
