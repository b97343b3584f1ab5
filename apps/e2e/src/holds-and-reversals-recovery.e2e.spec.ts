import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose, { type Connection } from 'mongoose';
import { type AppName, type ProcessStack } from '@ris/stack';
import { ApiClient, e2eStack, eventually, readEvents, type ApiResponse, type TestApp } from '@ris/testing';
import { ownStack, removeOwnStack } from './support/own-stack';
import { expectStatus } from './support/referral-scenario';

const DAY_MS = 86_400_000;

// Holding periods (holdDays), reversals and payouts on a stack of their own whose
// clock the test moves: the services read time through RIS_TEST_CLOCK_FILE
// (libs/config clock.ts), so 30 days pass by writing a file, never by
// sleeping. The release pass and the recovery passes run every few hundred
// ms, and work a dead process left is taken over after 2 s instead of 30 s
// (REVERSAL_ABANDONED_AFTER_MS, MOVE_ABANDONED_AFTER_MS), so the crash
// tests wait for no constant. Services are killed here (RIS_CRASH_AT, and
// SIGKILL), which no other test file may see.
//
// The clock only moves forward through the file: each test creates its
// rewards at the offset the one before left, and moves it on.
describe('holding periods and reversals, with the clock moved and services killed', () => {
  let stack: ProcessStack;
  let app: TestApp;
  let clockDir: string;
  let clockFile: string;
  let offsetMs = 0;
  let referralDb: Connection;
  let rewardDb: Connection;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${(seq += 1)}`;

  beforeAll(async () => {
    clockDir = mkdtempSync(join(tmpdir(), 'ris-clock-'));
    clockFile = join(clockDir, 'offset-ms');
    writeFileSync(clockFile, '0');
    stack = ownStack('hold', {
      apps: ['referral-service', 'fraud-service', 'reward-service', 'gateway'],
      env: { RIS_TEST_CLOCK_FILE: clockFile, RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
      appEnv: {
        'reward-service': { HOLD_RELEASE_INTERVAL_MS: '300', RECOVERY_INTERVAL_MS: '500', MOVE_ABANDONED_AFTER_MS: '2000' },
        'referral-service': { RECOVERY_INTERVAL_MS: '500', REVERSAL_ABANDONED_AFTER_MS: '2000' },
      },
    });
    await stack.start();
    const created = await new ApiClient(`${stack.gatewayUrl}/admin/v1`, stack.options.adminToken).post('/apps', { name: 'holds' });
    app = { appId: created.body.app.id, apiKey: created.body.apiKey, api: new ApiClient(`${stack.gatewayUrl}/api/v1`, created.body.apiKey) };
    const mongodbUrl = e2eStack().mongodbUrl;
    [referralDb, rewardDb] = await Promise.all(
      ['referral', 'reward'].map((service) => mongoose.createConnection(mongodbUrl, { dbName: `${stack.options.dbPrefix}${service}` }).asPromise()),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all([referralDb?.close(), rewardDb?.close()]);
    await removeOwnStack(stack);
    if (clockDir) rmSync(clockDir, { recursive: true, force: true });
  });

  /** Moves the services' clock on by `days` (they see it within 50 ms). */
  function moveClock(days: number): void {
    offsetMs += days * DAY_MS;
    writeFileSync(clockFile, String(offsetMs));
  }

  const campaign = async (fields: Record<string, unknown>) =>
    expectStatus(await app.api.post('/campaigns', { name: unique('Campaign'), fraud: { flagThreshold: 100 }, ...fields }), [201], 'create campaign').body.campaign as { id: string };

  /** A conversion through a fresh referrer (or the referrer itself: a self-referral, flagged), with its rewards by side. */
  async function sale(campaignId: string, amount?: number, options: { self?: boolean } = {}) {
    const referrerId = unique('referrer');
    const referral = expectStatus(await app.api.post('/referrals', { campaignId, referrerId }), [201], 'referral').body;
    const refereeId = options.self ? referrerId : unique('referee');
    const res = expectStatus(
      await app.api.post('/conversions', { referralCode: referral.referralCode, refereeId, ...(amount === undefined ? {} : { amount }) }),
      [201],
      'conversion',
    ).body;
    const bySide = (side: string) => res.rewards.find((r: any) => r.side === side)?.rewardId as string;
    return { conversionId: res.conversionId as string, referrerId, refereeId, status: res.conversionStatus as string, referrerReward: bySide('REFERRER'), refereeReward: bySide('REFEREE') };
  }

  const reward = async (id: string) => expectStatus(await app.api.get(`/rewards/${id}`), [200], `reward ${id}`).body.reward;
  const history = async (id: string): Promise<Array<{ from: string; to: string }>> => expectStatus(await app.api.get(`/rewards/${id}/history`), [200], 'history').body.history;
  const moves = async (id: string) => (await history(id)).map((m) => `${m.from}>${m.to}`);
  const statusOf = async (id: string) => (await reward(id)).status as string;
  const untilStatus = (id: string, status: string, timeoutMs = 20_000) => eventually(() => reward(id), (r) => r.status === status, timeoutMs);
  /** The events of a type on this stack's own stream, of these rewards. */
  const eventsOf = (type: string, rewardIds: string[]) =>
    readEvents(type, (e) => rewardIds.includes(e.data.rewardId as string), { stream: stack.options.eventsStream, subjectPrefix: stack.options.eventsSubjectPrefix });

  it('holds a clean conversion\'s reward for holdDays, refuses its claim meanwhile, and approves it once when the clock passes availableAt', async () => {
    const thirty = await campaign({ holdDays: 30, referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const one = await campaign({ holdDays: 1, referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const held = await sale(thirty.id);
    const control = await sale(one.id);
    const createdAt = Date.now() + offsetMs;

    const pending = await reward(held.referrerReward);
    expect([held.status, pending.status]).toEqual(['CONVERTED', 'PENDING']);
    expect(Math.abs(Date.parse(pending.availableAt) - (createdAt + 30 * DAY_MS))).toBeLessThan(60_000);
    const refused = await app.api.post(`/rewards/${held.referrerReward}/claim`);
    expect([refused.status, refused.body.error?.code, refused.body.error?.details?.status]).toEqual([422, 'REWARD_NOT_CLAIMABLE', 'PENDING']);

    // 29 days on: the 1-day reward is released, which proves a pass ran on the moved clock; the 30-day one is still held.
    moveClock(29);
    await untilStatus(control.referrerReward, 'APPROVED');
    expect(await statusOf(held.referrerReward)).toBe('PENDING');
    expect((await app.api.post(`/rewards/${held.referrerReward}/claim`)).status).toBe(422);

    moveClock(2);
    const approved = await untilStatus(held.referrerReward, 'APPROVED');
    expect(approved.availableAt).toBe(pending.availableAt);
    expect(await moves(held.referrerReward)).toEqual(['NEW>PENDING', 'PENDING>APPROVED']);
    expect((await eventually(() => eventsOf('reward.approved', [held.referrerReward]), (e) => e.length >= 1)).length).toBe(1);
    expect((await app.api.post(`/rewards/${held.referrerReward}/claim`)).status).toBe(200);
    const stats = (await app.api.get(`/users/${held.referrerId}/stats?campaignId=${thirty.id}`)).body;
    expect([stats.rewardsEarned, stats.rewardsPending]).toEqual([10, 0]);
  });

  it('cancels a held reward whose sale is reversed inside the hold, and never approves it when the hold passes', async () => {
    const share = await campaign({ holdDays: 30, referrerReward: { percent: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const refunded = await sale(share.id, 100);
    const reduced = await sale(share.id, 100);

    const full = expectStatus(await app.api.post(`/conversions/${refunded.conversionId}/reversals`, { reason: 'REFUND' }), [201], 'full reversal').body;
    expect(full.rewards.map((r: any) => [r.effect, r.reward.status])).toEqual([['CANCELLED', 'CANCELLED']]);
    const partial = expectStatus(await app.api.post(`/conversions/${reduced.conversionId}/reversals`, { reason: 'REFUND', amount: 40 }), [201], 'partial').body;
    expect(partial.rewards.map((r: any) => [r.effect, r.fromAmount, r.toAmount, r.reward.status])).toEqual([['REDUCED', 10, 6, 'PENDING']]);

    moveClock(31);
    // The reduced one is released at what it is worth now: a pass ran on the moved clock.
    expect(await untilStatus(reduced.referrerReward, 'APPROVED')).toMatchObject({ amount: 6, earnedAmount: 10, reversedAmount: 4 });
    expect(await reward(refunded.referrerReward)).toMatchObject({ status: 'CANCELLED', reversalReason: 'REFUND', reversedAmount: 10 });
    expect(await moves(refunded.referrerReward)).toEqual(['NEW>PENDING', 'PENDING>CANCELLED']);
    expect(await eventsOf('reward.approved', [refunded.referrerReward])).toEqual([]);
    expect((await app.api.post(`/rewards/${refunded.referrerReward}/claim`)).status).toBe(422);
    const stats = (await app.api.get(`/stats?campaignId=${share.id}`)).body;
    expect([stats.totalReversals, stats.totalRewardValue]).toEqual([2, 6]);
  });

  it('holds a flagged conversion\'s reward by its review and its hold: approving the flag releases it only once the hold is over', async () => {
    const guarded = await campaign({ holdDays: 30, referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' }, fraud: { flagThreshold: 50 } });
    const early = await sale(guarded.id, undefined, { self: true });
    const late = await sale(guarded.id, undefined, { self: true });
    expect([early.status, late.status]).toEqual(['FLAGGED', 'FLAGGED']);
    const flags = (await app.api.get('/fraud/flags?status=OPEN&limit=100')).body.flags;
    const flagOf = (conversionId: string) => flags.find((f: any) => f.conversionId === conversionId).id as string;

    // Approved before the hold is over: converted, but the reward waits for its availableAt.
    expectStatus(await app.api.post(`/fraud/flags/${flagOf(early.conversionId)}/resolve`, { decision: 'APPROVE' }), [200], 'approve early');
    expect(await statusOf(early.referrerReward)).toBe('PENDING');

    moveClock(31);
    // The pass releases the approved one; the one still under review stays held past its availableAt.
    await untilStatus(early.referrerReward, 'APPROVED');
    expect(await statusOf(late.referrerReward)).toBe('PENDING');
    expectStatus(await app.api.post(`/fraud/flags/${flagOf(late.conversionId)}/resolve`, { decision: 'APPROVE' }), [200], 'approve late');
    // Approved after the hold is over: at once, by the decision.
    expect(await statusOf(late.referrerReward)).toBe('APPROVED');
    for (const id of [early.referrerReward, late.referrerReward]) expect([id, await moves(id)]).toEqual([id, ['NEW>PENDING', 'PENDING>APPROVED']]);
    expect((await eventually(() => eventsOf('reward.approved', [early.referrerReward, late.referrerReward]), (e) => e.length >= 2)).length).toBe(2);
  });

  /** Whether an answer is final (a retry with its key could not change it): not a 5xx, not the network, not 409 CONFLICT. */
  const isFinal = (res: ApiResponse) => res.status < 500 && !(res.status === 409 && res.body?.error?.code === 'CONFLICT');
  const send = (request: () => Promise<ApiResponse>) =>
    request().catch((err: unknown): ApiResponse => ({ status: 599, headers: new Headers(), body: { error: { code: String(err) } } }));

  /** Restarts `service` so that it kills itself at `point`, runs `burst`, and sees that it did die there; then starts it normally. */
  async function dyingAt<T>(service: AppName, point: string, burst: () => Promise<T>): Promise<T> {
    await stack.stopApp(service);
    await stack.startApp(service, { RIS_CRASH_AT: point });
    const out = await burst();
    expect([point, (await exitOf(service, `${service} did not die at ${point}`)).signal]).toEqual([point, 'SIGKILL']);
    await stack.startApp(service);
    return out;
  }

  /** How the service's process ended; a failure naming `what` if it is still running after 20 s. */
  function exitOf(service: AppName, what: string) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(what)), 20_000)));
    return Promise.race([stack.lastExit(service), late]).finally(() => clearTimeout(timer));
  }

  /** Four kinds of reversal of a sale of 100 (10 % to the referrer, 5 % to the referee), and what one application of each does. */
  interface Kind {
    body: { reason: string; amount?: number };
    /** The referrer's reward redeemed before: a clawback instead of a cancellation or reduction. */
    paid: boolean;
    referrer: { effect: string; status: string; amount: number; taken: number };
    referee: { effect: string; status: string; amount: number; taken: number };
  }
  const KINDS: Kind[] = [
    { body: { reason: 'CHARGEBACK' }, paid: false, referrer: { effect: 'CANCELLED', status: 'CANCELLED', amount: 10, taken: 10 }, referee: { effect: 'CANCELLED', status: 'CANCELLED', amount: 5, taken: 5 } },
    { body: { reason: 'REFUND', amount: 40 }, paid: false, referrer: { effect: 'REDUCED', status: 'APPROVED', amount: 6, taken: 4 }, referee: { effect: 'REDUCED', status: 'APPROVED', amount: 3, taken: 2 } },
    { body: { reason: 'REFUND' }, paid: true, referrer: { effect: 'CLAWBACK', status: 'PAID', amount: 10, taken: 10 }, referee: { effect: 'CANCELLED', status: 'CANCELLED', amount: 5, taken: 5 } },
    { body: { reason: 'CANCELLATION', amount: 30 }, paid: true, referrer: { effect: 'CLAWBACK', status: 'PAID', amount: 10, taken: 3 }, referee: { effect: 'REDUCED', status: 'APPROVED', amount: 3.5, taken: 1.5 } },
  ];

  /** `count` sales of 100 on a fresh share-of-sale campaign, the kinds in turn, each with the Idempotency-Key its reversal is sent with. */
  async function salesToReverse(count: number) {
    const share = await campaign({ referrerReward: { percent: 10, fulfillmentType: 'DISCOUNT_CODE' }, refereeReward: { percent: 5, fulfillmentType: 'DISCOUNT_CODE' } });
    const sales = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const s = await sale(share.id, 100);
        const kind = KINDS[i % KINDS.length];
        if (kind.paid) {
          expectStatus(await app.api.post(`/rewards/${s.referrerReward}/claim`), [200], 'claim');
          expectStatus(await app.api.post('/rewards/redeem', { rewardId: s.referrerReward, userId: s.referrerId }), [200], 'redeem');
        }
        return { ...s, kind, key: `reversal-${s.conversionId}` };
      }),
    );
    return { campaignId: share.id, sales };
  }
  type Sale = Awaited<ReturnType<typeof salesToReverse>>['sales'][number];

  const reverse = (s: Sale) => send(() => app.api.post(`/conversions/${s.conversionId}/reversals`, s.kind.body, { 'idempotency-key': s.key }));
  /** The reversals of `batch`, sent 40 ms apart: several in flight in the process that dies (the spacing is the point, not a wait for something). */
  const burst = (batch: Sale[]) => Promise.all(batch.map(async (s, i) => (await new Promise((r) => setTimeout(r, i * 40)), reverse(s))));
  const pendingReversals = () => referralDb.collection('reversals').countDocuments({ status: 'PENDING' });

  /**
   * What must hold once, however the processes died: each sale has one
   * reversal, APPLIED, applied once to each of its rewards (their amounts,
   * statuses and reversedAmount as one application leaves them), one
   * clawback per redeemed reward, one conversion.reversed; the sale's
   * reversedAmount once. Returns the reversal ids by conversion.
   */
  async function appliedOnce(sales: Sale[]): Promise<Map<string, string>> {
    const conversionIds = sales.map((s) => s.conversionId);
    const stored = await referralDb.collection('reversals').find({ conversionId: { $in: conversionIds } }).toArray();
    expect(stored.map((r) => r.status)).toEqual(Array(sales.length).fill('APPLIED'));
    expect(new Set(stored.map((r) => r.conversionId)).size).toBe(sales.length);
    const journal = await rewardDb.collection('reward_reversals').find({ conversionId: { $in: conversionIds } }).toArray();
    expect([journal.length, journal.every((r) => r.done === true)]).toEqual([2 * sales.length, true]);
    const reversalIdOf = new Map(stored.map((r) => [r.conversionId as string, String(r._id)]));

    const read = await Promise.all(
      sales.map(async (s) => ({
        rewards: await Promise.all([reward(s.referrerReward), reward(s.refereeReward)]),
        refereeMoves: await moves(s.refereeReward),
        conversion: (await app.api.get(`/conversions?userId=${s.referrerId}`)).body.conversions[0],
      })),
    );
    for (const [i, s] of sales.entries()) {
      const { rewards: [referrer, referee], refereeMoves, conversion } = read[i];
      for (const [got, want] of [
        [referrer, s.kind.referrer],
        [referee, s.kind.referee],
      ] as const) {
        expect([got.id, got.status, got.amount, got.reversedAmount]).toEqual([got.id, want.status, want.amount, want.taken]);
      }
      // A cancellation is one move, whoever finished it.
      if (s.kind.referee.status === 'CANCELLED') expect([s.refereeReward, refereeMoves]).toEqual([s.refereeReward, ['NEW>APPROVED', 'APPROVED>CANCELLED']]);
      const full = s.kind.body.amount === undefined;
      expect([s.conversionId, conversion.status, conversion.reversedAmount]).toEqual([s.conversionId, full ? 'REVERSED' : 'CONVERTED', s.kind.body.amount ?? 100]);
    }

    // What is owed back: one clawback per redeemed reward, of its reversal, none twice.
    const clawbacks = (await app.api.get('/rewards/clawbacks?limit=100')).body.clawbacks as Array<{ rewardId: string; reversalId: string; amount: number }>;
    const paid = sales.filter((s) => s.kind.paid);
    const ours = clawbacks.filter((c) => sales.some((s) => s.referrerReward === c.rewardId));
    expect(ours.map((c) => c.rewardId).sort()).toEqual(paid.map((s) => s.referrerReward).sort());
    for (const s of paid) expect(ours.find((c) => c.rewardId === s.referrerReward)).toMatchObject({ reversalId: reversalIdOf.get(s.conversionId), amount: s.kind.referrer.taken });

    // One conversion.reversed per reversal on the stream, those whose process died before publishing it included.
    const events = await eventually(
      () => readEvents('conversion.reversed', (e) => reversalIdOf.has(e.data.conversionId as string), { stream: stack.options.eventsStream, subjectPrefix: stack.options.eventsSubjectPrefix }),
      (e) => e.length >= sales.length,
      10_000,
    );
    expect(events.map((e) => e.data.reversalId).sort()).toEqual([...reversalIdOf.values()].sort());
    return reversalIdOf;
  }

  /** The campaign's figures (GET /stats) and each sale's conversion record as one application of each reversal leaves them. */
  function figuresOnce(sales: Sale[]) {
    const taken = (s: Sale) => s.kind.referrer.taken + s.kind.referee.taken;
    return { totalReversals: sales.length, totalRewardValue: sales.reduce((sum, s) => sum + 15 - taken(s), 0), rewardAmount: (s: Sale) => 10 - s.kind.referrer.taken };
  }

  /**
   * Each caller without an answer sends its request again with its key,
   * once the recovery passes have finished what the dead processes left:
   * answered with the reversal the pass finished (200), or made now if the
   * first try never reached the referral service (201), with the effects of
   * its kind.
   */
  async function retried(sales: Sale[], answers: ApiResponse[]): Promise<void> {
    const final = await Promise.all(answers.map((answer, i) => (isFinal(answer) ? answer : eventually(() => reverse(sales[i]), isFinal, 30_000))));
    for (const [i, s] of sales.entries()) {
      expect([s.conversionId, [200, 201].includes(final[i].status)]).toEqual([s.conversionId, true]);
      const effects = Object.fromEntries(final[i].body.rewards.map((r: { reward: { side: string }; effect: string }) => [r.reward.side, r.effect]));
      expect([s.conversionId, effects]).toEqual([s.conversionId, { REFERRER: s.kind.referrer.effect, REFEREE: s.kind.referee.effect }]);
    }
  }

  it('applies every reversal exactly once when the reward service dies in the middle of 10 of them', async () => {
    const { campaignId, sales } = await salesToReverse(10);
    // It dies right after it marked its first reward reversal applied; the rest find it gone.
    const answers = await dyingAt('reward-service', 'reward.reversed', () => burst(sales));
    expect(answers.filter((a) => !isFinal(a)).length).toBeGreaterThanOrEqual(1);
    // Nobody retries: the referral service's recovery pass finishes every reversal left PENDING.
    await eventually(pendingReversals, (n) => n === 0, 30_000);
    await retried(sales, answers);
    await appliedOnce(sales);

    // The referral service never died: its figures count each reversal exactly once.
    const once = figuresOnce(sales);
    const stats = (await app.api.get(`/stats?campaignId=${campaignId}`)).body;
    expect([stats.totalReversals, stats.totalRewardValue]).toEqual([once.totalReversals, once.totalRewardValue]);
    for (const s of sales) {
      const [conversion] = (await app.api.get(`/conversions?userId=${s.referrerId}`)).body.conversions;
      expect([s.conversionId, conversion.rewardAmount]).toEqual([s.conversionId, once.rewardAmount(s)]);
    }
    // The reward totals of the process that died are never counted twice (a death between a totals marker and its
    // increments leaves them short: docs/operations.md, tools/reward-rebuild-totals.mjs).
    for (const s of sales.filter((x) => x.kind.referee.effect === 'REDUCED')) {
      const user = (await app.api.get(`/users/${s.refereeId}/stats?campaignId=${campaignId}`)).body;
      expect([s.refereeId, user.rewardsEarned >= s.kind.referee.amount, user.rewardsEarned <= 5]).toEqual([s.refereeId, true, true]);
    }
  }, 60_000);

  it('applies every reversal exactly once when the referral service dies in the middle of 10 of them', async () => {
    const { campaignId, sales } = await salesToReverse(10);
    // It dies right after it marked its first reversal APPLIED, before answering; the rest are cut short or find it gone.
    const answers = await dyingAt('referral-service', 'conversion.reversed', () => burst(sales));
    expect(answers.filter((a) => !isFinal(a)).length).toBeGreaterThanOrEqual(1);
    await eventually(pendingReversals, (n) => n === 0, 30_000);
    await retried(sales, answers);
    await appliedOnce(sales);

    // The reward service never died: each reward's totals are those of one application.
    for (const s of sales.filter((x) => x.kind.referee.effect === 'REDUCED')) {
      const user = (await app.api.get(`/users/${s.refereeId}/stats?campaignId=${campaignId}`)).body;
      expect([s.refereeId, user.rewardsEarned, user.rewardsPending]).toEqual([s.refereeId, s.kind.referee.amount, 0]);
    }
    // The referral service's figures are never counted twice. A reversal caught by the kill between its count's marker
    // and its increments is left short (as every counter kept on write: docs/operations.md), and no recount covers
    // these figures: see the report of this test.
    const once = figuresOnce(sales);
    const stats = (await app.api.get(`/stats?campaignId=${campaignId}`)).body;
    expect([stats.totalReversals <= once.totalReversals, stats.totalRewardValue >= once.totalRewardValue]).toEqual([true, true]);
    const short: string[] = [];
    for (const s of sales) {
      const [conversion] = (await app.api.get(`/conversions?userId=${s.referrerId}`)).body.conversions;
      expect([s.conversionId, conversion.rewardAmount >= once.rewardAmount(s)]).toEqual([s.conversionId, true]);
      if (conversion.rewardAmount !== once.rewardAmount(s)) short.push(s.conversionId);
    }
    if (stats.totalReversals !== once.totalReversals || short.length > 0) {
      process.stdout.write(`figures left short by the kill: totalReversals ${stats.totalReversals} of ${once.totalReversals}, reward value ${stats.totalRewardValue} (once: ${once.totalRewardValue}), records ${short.join(', ')}\n`);
    }
  }, 60_000);

  /** Held rewards of `count` fresh sales on a campaign held 30 days from now. */
  async function heldRewards(count: number) {
    const held = await campaign({ holdDays: 30, referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } });
    const sales = await Promise.all(Array.from({ length: count }, () => sale(held.id)));
    expect(await Promise.all(sales.map((s) => statusOf(s.referrerReward)))).toEqual(Array(count).fill('PENDING'));
    return { campaignId: held.id, sales };
  }

  /**
   * Every reward approved once: one PENDING→APPROVED move, one
   * reward.approved, and its owner's totals counted once; or, where a
   * SIGKILL may have found the pass between a move's totals marker and its
   * increments (`exactTotals` false), never twice.
   */
  async function approvedOnce(campaignId: string, sales: Array<{ referrerId: string; referrerReward: string }>, exactTotals = true) {
    const ids = sales.map((s) => s.referrerReward);
    await eventually(async () => Promise.all(ids.map(statusOf)), (all) => all.every((st) => st === 'APPROVED'), 20_000);
    for (const [i, m] of (await Promise.all(ids.map(moves))).entries()) expect([ids[i], m]).toEqual([ids[i], ['NEW>PENDING', 'PENDING>APPROVED']]);
    // Every move finished (its totals counted and its event stored) before the figures are read.
    await eventually(() => rewardDb.collection('reward_moves').countDocuments({ rewardId: { $in: ids }, done: false }), (n) => n === 0, 20_000);
    const short: string[] = [];
    const users = await Promise.all(sales.map(async (s) => (await app.api.get(`/users/${s.referrerId}/stats?campaignId=${campaignId}`)).body));
    for (const [i, s] of sales.entries()) {
      const counted = [users[i].rewardsEarned, users[i].rewardsPending];
      if (exactTotals || counted[0] !== 0) expect([s.referrerId, counted]).toEqual([s.referrerId, [10, 0]]);
      else {
        expect([s.referrerId, counted]).toEqual([s.referrerId, [0, 10]]);
        short.push(s.referrerReward);
      }
    }
    if (short.length > 0) process.stdout.write(`reward totals left short by the kill (not counted twice): ${short.join(', ')}\n`);
    const events = await eventually(() => eventsOf('reward.approved', ids), (e) => e.length >= ids.length, 10_000);
    expect(events.map((e) => e.data.rewardId).sort()).toEqual([...ids].sort());
  }

  it('approves every due reward exactly once when the reward service dies during a release pass', async () => {
    // At a crash point: right after the first release is marked done, before its event is published.
    const crashed = await heldRewards(8);
    await dyingAt('reward-service', 'reward.moved', async () => {
      moveClock(31);
      await exitOf('reward-service', 'no release reached reward.moved');
    });
    await approvedOnce(crashed.campaignId, crashed.sales);

    // And at whatever point a SIGKILL finds the pass, once the first of 20 releases is done.
    const killed = await heldRewards(20);
    moveClock(31);
    // Watched in its database (quicker than 30 reads over the API), so the kill comes early in the pass.
    const ids = killed.sales.map((s) => s.referrerReward as never);
    const approvedSoFar = () => rewardDb.collection('rewards').countDocuments({ _id: { $in: ids }, status: 'APPROVED' });
    await eventually(approvedSoFar, (approved) => approved > 0);
    await stack.stopApp('reward-service', 'SIGKILL');
    process.stdout.write(`releases done when the reward service was killed: ${await approvedSoFar()} of 20\n`);
    await stack.startApp('reward-service');
    await approvedOnce(killed.campaignId, killed.sales, false);
  }, 90_000);

  it('puts every cash reward in exactly one payout when the reward service dies while making payouts', async () => {
    const cash = await campaign({ referrerReward: { amount: 6, fulfillmentType: 'CASH' } });
    const referrers: string[] = [];
    const rewardIds: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const first = await sale(cash.id);
      const referral = expectStatus(await app.api.post('/referrals', { campaignId: cash.id, referrerId: first.referrerId }), [200, 201], 'referral').body;
      const second = expectStatus(await app.api.post('/conversions', { referralCode: referral.referralCode, refereeId: unique('referee') }), [201], 'conversion').body;
      referrers.push(first.referrerId);
      rewardIds.push(first.referrerReward, second.rewards.find((r: any) => r.side === 'REFERRER').rewardId);
    }
    const dueOf = async () => (await app.api.get('/payouts/due')).body.due.filter((d: any) => referrers.includes(d.userId));

    // It dies once the first payout has claimed its rewards, before any is opened; nobody retries.
    const answer = await dyingAt('reward-service', 'payout.claimed', () => send(() => app.api.post('/payouts', {})));
    expect(isFinal(answer)).toBe(false);
    // The recovery pass undoes the payouts left half made: every reward is due again (none stuck in a payout that does not exist).
    await eventually(dueOf, (due) => due.length === 10 && due.every((d: any) => d.rewardCount === 2 && d.amount === 12), 30_000);
    expect(await rewardDb.collection('payouts').countDocuments({ userId: { $in: referrers } })).toBe(0);

    const made = expectStatus(await app.api.post('/payouts', {}), [201], 'payouts').body.payouts.filter((p: any) => referrers.includes(p.userId));
    expect(made.map((p: any) => p.userId).sort()).toEqual([...referrers].sort());
    const inPayouts = (await Promise.all(made.map((p: any) => app.api.get(`/payouts/${p.id}`)))).flatMap((r) => r.body.rewards.map((x: any) => x.id));
    expect(inPayouts.sort()).toEqual([...rewardIds].sort());
    expect(await dueOf()).toEqual([]);
  }, 90_000);
});

