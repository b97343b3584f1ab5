import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessStack } from '@ris/stack';
import { ApiClient, WebhookReceiver, eventually, type ApiResponse } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { expectStatus } from './support/referral-scenario';

// Streaks on a stack of their own whose clock the test sets: the incentive
// service reads time through RIS_TEST_CLOCK_FILE (libs/config clock.ts), so
// a day passes by writing a file, never by sleeping, and the streak pass
// runs every 300 ms. The days chosen cross New York's spring-forward
// (2027-03-14, a 23-hour day) and show one instant counted as different
// days in two zones.
describe('streaks: daily and weekly, in the user\u2019s time zone, with freezes, rewards and the pass', () => {
  let stack: ProcessStack;
  let api: ApiClient;
  let receiver: WebhookReceiver;
  let clockDir: string;
  let clockFile: string;

  type Streak = { key: string; length: number; longest: number; atRisk: boolean; freezesLeft: number; extendedThisPeriod: boolean; periodStart: string; timeZone: string };
  type Extension = { key: string; length: number; freezesUsed: number; restarted: boolean };

  const streaksOf = async (userId: string) => expectStatus(await api.get(`/incentives/streaks/${userId}`), [200], 'streaks').body.streaks as Streak[];
  const streakOf = async (userId: string, key: string) => (await streaksOf(userId)).find((s) => s.key === key) as Streak;

  /**
   * Sets the services' clock to `iso` and waits until the incentive service
   * reads it: a New York user's current day (its daily periodStart) is the
   * one `iso` falls in there.
   */
  async function clockAt(iso: string, nyMidnightUtc: string): Promise<void> {
    writeFileSync(clockFile, String(new Date(iso).getTime() - Date.now()));
    await eventually(
      () => streakOf('clock-probe', 'daily'),
      (s) => s.periodStart === nyMidnightUtc,
      10_000,
    );
  }

  const event = async (userId: string, extra: Record<string, unknown> = {}): Promise<ApiResponse> =>
    expectStatus(await api.post('/incentives/events', { userId, actionKey: 'login', ...extra }), [201], `event of ${userId}`);
  const extended = (res: ApiResponse) => res.body.streaksExtended as Extension[];

  beforeAll(async () => {
    clockDir = mkdtempSync(join(tmpdir(), 'ris-clock-'));
    clockFile = join(clockDir, 'offset-ms');
    writeFileSync(clockFile, String(new Date('2027-03-13T12:00:00Z').getTime() - Date.now()));
    receiver = await WebhookReceiver.start();
    stack = ownStack('stk', {
      apps: ['incentive-service', 'webhook-service', 'gateway'],
      env: { RIS_TEST_CLOCK_FILE: clockFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: { 'incentive-service': { STREAK_PASS_INTERVAL_MS: '300' } },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'streaks' });
    api = new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey);
    expectStatus(await api.post('/incentives/actions', { key: 'login', name: 'Log in', type: 'STANDARD', coins: 1, xp: 1 }), [201], 'action');
    expectStatus(await api.post('/incentives/actions', { key: 'other', name: 'Other', type: 'STANDARD', coins: 1 }), [201], 'action');
    expectStatus(await api.post('/incentives/badges', { key: 'three_days', name: 'Three days' }), [201], 'badge');
    expectStatus(
      await api.post('/incentives/streaks/definitions', {
        key: 'daily',
        name: 'Daily login',
        period: 'DAILY',
        actionKeys: ['login'],
        freezesPerMonth: 1,
        rewards: [{ length: 3, coins: 50, badgeKey: 'three_days' }],
      }),
      [201],
      'daily streak',
    );
    expectStatus(await api.post('/incentives/streaks/definitions', { key: 'weekly', name: 'Weekly', period: 'WEEKLY' }), [201], 'weekly streak');
    expectStatus(
      await api.post('/incentives/milestones/definitions', { key: 'three_in_a_row', name: 'Three in a row', metric: 'STREAK', streakKey: 'daily', threshold: 3 }),
      [201],
      'milestone',
    );
    expectStatus(
      await api.post('/webhooks', { url: receiver.url('/streaks'), events: ['STREAK_EXTENDED', 'STREAK_FROZEN', 'STREAK_ENDED'] }),
      [201],
      'webhook',
    );
    for (const userId of ['ana', 'clock-probe']) {
      expectStatus(await api.put(`/incentives/users/${userId}/settings`, { timeZone: 'america/new_york' }), [200], 'settings');
    }
  }, 120_000);

  afterAll(async () => {
    await removeOwnStack(stack);
    await receiver?.close();
    if (clockDir) rmSync(clockDir, { recursive: true, force: true });
  });

  it('validates definitions, settings and an event\u2019s zone', async () => {
    expect((await api.post('/incentives/streaks/definitions', { key: 'x', name: 'X', period: 'HOURLY' })).status).toBe(400);
    expect((await api.post('/incentives/streaks/definitions', { key: 'x', name: 'X', period: 'DAILY', freezesPerMonth: 11 })).status).toBe(400);
    const unknownAction = await api.post('/incentives/streaks/definitions', { key: 'x', name: 'X', period: 'DAILY', actionKeys: ['nope'] });
    expect([unknownAction.status, unknownAction.body.error.code]).toEqual([422, 'ACTION_NOT_FOUND']);
    expect((await api.post('/incentives/streaks/definitions', { key: 'daily', name: 'Again', period: 'DAILY' })).status).toBe(409);
    const badZone = await api.put('/incentives/users/ana/settings', { timeZone: 'Mars/Olympus_Mons' });
    expect([badZone.status, badZone.body.error.code]).toEqual([422, 'TIME_ZONE_UNKNOWN']);
    expect((await api.post('/incentives/events', { userId: 'ana', actionKey: 'login', timeZone: 'Nowhere/Land' })).body.error.code).toBe('TIME_ZONE_UNKNOWN');
    const noKey = await api.post('/incentives/milestones/definitions', { key: 'm', name: 'M', metric: 'STREAK', threshold: 2 });
    expect([noKey.status, noKey.body.error.code]).toEqual([422, 'STREAK_KEY_REQUIRED']);
    const twice = await api.post('/incentives/streaks/definitions', { key: 'x', name: 'X', period: 'DAILY', rewards: [{ length: 2, coins: 1 }, { length: 2, coins: 2 }] });
    expect([twice.status, twice.body.error.code]).toEqual([422, 'REWARD_LENGTH_REPEATED']);
    const settings = await api.get('/incentives/users/ana/settings');
    expect(settings.body.settings).toMatchObject({ userId: 'ana', timeZone: 'America/New_York' });
    expect((await api.get('/incentives/users/someone-new/settings')).body.settings.timeZone).toBe('UTC');
    const defs = await api.get('/incentives/streaks/definitions');
    expect(defs.body.streaks.map((s: { key: string }) => s.key)).toEqual(['daily', 'weekly']);
  });

  it('counts days in each user\u2019s zone across a daylight-saving change, saves a missed day with a freeze, and pays at 3 once', async () => {
    // Saturday 2027-03-13, 07:00 in New York, 12:00 UTC.
    await clockAt('2027-03-13T12:00:00Z', '2027-03-13T05:00:00.000Z');
    const first = await event('ana');
    expect(extended(first)).toEqual([
      { key: 'daily', length: 1, freezesUsed: 0, restarted: false },
      { key: 'weekly', length: 1, freezesUsed: 0, restarted: false },
    ]);
    expect(extended(await event('ana'))).toEqual([]);
    // Bea counts in UTC; 'other' extends her weekly streak only (daily names login).
    expect(extended(await event('bea', { actionKey: 'other' }))).toEqual([{ key: 'weekly', length: 1, freezesUsed: 0, restarted: false }]);
    await event('bea');

    // 23:30 on Sunday the 14th in New York (a 23-hour day there) is already Monday the 15th in UTC.
    await clockAt('2027-03-15T03:30:00Z', '2027-03-14T05:00:00.000Z');
    expect(extended(await event('ana'))).toEqual([{ key: 'daily', length: 2, freezesUsed: 0, restarted: false }]);
    // For Bea the 14th passed without an event: her freeze saves it (a freeze keeps the streak, it does not
    // lengthen it), used by the pass as the 14th ended or, if the pass has not come yet, by this event.
    const bea = extended(await event('bea'));
    expect(bea).toEqual([
      { key: 'daily', length: 2, freezesUsed: expect.any(Number), restarted: false },
      { key: 'weekly', length: 2, freezesUsed: 0, restarted: false },
    ]);
    expect(await streakOf('bea', 'daily')).toMatchObject({ length: 2, freezesLeft: 0 });

    // 00:30 on Monday the 15th in New York: a new day and a new week for Ana; still the 15th for Bea.
    await clockAt('2027-03-15T04:30:00Z', '2027-03-15T04:00:00.000Z');
    const third = await event('ana');
    expect(extended(third)).toEqual([
      { key: 'daily', length: 3, freezesUsed: 0, restarted: false },
      { key: 'weekly', length: 2, freezesUsed: 0, restarted: false },
    ]);
    // The reward of length 3 (coins and badge) and the STREAK milestone come with the event that reached it.
    expect(third.body.badgesAwarded).toEqual([{ key: 'three_days', name: 'Three days' }]);
    expect(third.body.milestonesReached).toEqual([expect.objectContaining({ key: 'three_in_a_row', metric: 'STREAK', threshold: 3 })]);
    expect(third.body.balance.coins).toBe(4 + 50);
    expect(extended(await event('bea'))).toEqual([]);

    const ana = await streakOf('ana', 'daily');
    expect(ana).toMatchObject({ length: 3, longest: 3, extendedThisPeriod: true, atRisk: false, freezesLeft: 1, timeZone: 'America/New_York' });
    const txns = (await api.get('/incentives/balances/ana/transactions')).body.transactions as Array<{ reason: string; cause: string; coins: number; streak: unknown }>;
    expect(txns.filter((t) => t.reason === 'STREAK_REWARD')).toEqual([expect.objectContaining({ cause: 'STREAK', coins: 50, streak: { key: 'daily', length: 3 } })]);
    const webhooks = await receiver.waitFor((r) => r.path === '/streaks' && r.body.includes('"ana"'), 5);
    expect(webhooks.map((w) => JSON.parse(w.body).event)).toEqual(expect.arrayContaining(['STREAK_EXTENDED']));
  });

  it('the pass uses a freeze at the end of a missed day, then ends the streak; the next event restarts it and its rewards are paid again', async () => {
    // The 16th passes without an event: on the 17th the pass has used Ana's freeze.
    await clockAt('2027-03-17T16:00:00Z', '2027-03-17T04:00:00.000Z');
    const frozen = await eventually(() => streakOf('ana', 'daily'), (s) => s.freezesLeft === 0, 10_000);
    expect(frozen).toMatchObject({ length: 3, atRisk: true, extendedThisPeriod: false });
    await receiver.waitFor((r) => r.path === '/streaks' && JSON.parse(r.body).event === 'STREAK_FROZEN' && r.body.includes('"ana"'));

    // The 17th passes too, with no freeze left this month: the streak ends.
    await clockAt('2027-03-18T16:00:00Z', '2027-03-18T04:00:00.000Z');
    const [ended] = await receiver.waitFor((r) => r.path === '/streaks' && JSON.parse(r.body).event === 'STREAK_ENDED' && r.body.includes('"ana"'));
    expect(JSON.parse(ended.body).data).toMatchObject({ userId: 'ana', streakKey: 'daily', length: 3 });
    expect(await streakOf('ana', 'daily')).toMatchObject({ length: 0, longest: 3, atRisk: false });

    expect(extended(await event('ana'))).toContainEqual({ key: 'daily', length: 1, freezesUsed: 0, restarted: true });
    await clockAt('2027-03-19T16:00:00Z', '2027-03-19T04:00:00.000Z');
    await event('ana');
    await clockAt('2027-03-20T16:00:00Z', '2027-03-20T04:00:00.000Z');
    const again = await event('ana');
    expect(extended(again)).toContainEqual({ key: 'daily', length: 3, freezesUsed: 0, restarted: false });
    // Paid again by this streak; the badge and the milestone were given once.
    expect(again.body.badgesAwarded).toEqual([]);
    expect(again.body.milestonesReached).toEqual([]);
    const txns = (await api.get('/incentives/balances/ana/transactions?limit=100')).body.transactions as Array<{ reason: string; coins: number }>;
    expect(txns.filter((t) => t.reason === 'STREAK_REWARD')).toHaveLength(2);
    // The balance is still the sum of its ledger.
    const { balance } = (await api.get('/incentives/balances/ana')).body;
    expect(balance.coins).toBe(txns.reduce((sum, t) => sum + t.coins, 0));
  });

  it('a retried event answers the streaks it extended, and extends nothing twice', async () => {
    await clockAt('2027-03-21T16:00:00Z', '2027-03-21T04:00:00.000Z');
    const first = await event('cleo', { idempotencyKey: 'cleo-1' });
    const retry = expectStatus(await api.post('/incentives/events', { userId: 'cleo', actionKey: 'login', idempotencyKey: 'cleo-1' }), [200], 'retry');
    expect(retry.body.duplicate).toBe(true);
    expect(extended(retry)).toEqual(extended(first));
    expect(await streakOf('cleo', 'daily')).toMatchObject({ length: 1 });
  });
});
