import { parse } from 'csv-parse/sync';
import { createTestApp, eventually, readEvents, type ApiResponse, type TestApp } from '@ris/testing';
import { convert, createCampaign, createReferral, expectStatus } from './support/referral-scenario';

const statusAndCode = (res: ApiResponse) => [res.status, res.body?.error?.code];
const cents = (n: number) => Math.round(n * 100);

// Payouts of CASH rewards through the real gateway: what is due, payouts
// with a minimum and clawbacks netted, paid and failed, the finance CSV,
// and the races that must never pay a reward twice. (A kill -9 while
// payouts are made: holds-and-reversals-recovery.e2e.spec.ts, which owns a
// stack it may kill.)
describe('payouts', () => {
  let app: TestApp;
  let cash: { id: string };
  let seq = 0;

  beforeAll(async () => {
    app = await createTestApp('payouts');
    // 10 % of each sale in cash to the referrer; the referee gets a discount code (not paid out).
    cash = await createCampaign(app, {
      name: 'Cash commissions',
      fraud: { flagThreshold: 100 },
      referrerReward: { percent: 10, fulfillmentType: 'CASH' },
      refereeReward: { amount: 5, fulfillmentType: 'DISCOUNT_CODE' },
    });
  });

  /** `amounts.length` sales of a referrer (one referee each): the referrer's reward ids and the conversions, in order. */
  async function sales(referrerId: string, amounts: number[], campaignId = cash.id) {
    const { referralCode } = await createReferral(app, campaignId, referrerId);
    const out: Array<{ conversionId: string; rewardId: string }> = [];
    for (const amount of amounts) {
      const res = await convert(app, referralCode, `buyer-${(seq += 1)}`, { amount });
      out.push({ conversionId: res.conversionId, rewardId: res.rewards.find((r: any) => r.side === 'REFERRER').rewardId });
    }
    return out;
  }
  const reward = async (id: string) => expectStatus(await app.api.get(`/rewards/${id}`), [200], `reward ${id}`).body.reward;
  const createPayouts = (body?: Record<string, unknown>, headers?: Record<string, string>) => app.api.post('/payouts', body, headers);
  const mine = (payouts: any[], users: string[]) => payouts.filter((p) => users.includes(p.userId));

  it('pays each referrer who reaches the minimum their cash rewards less what they owe back, then marks payouts paid and failed', async () => {
    const [ana, bob, cyd] = ['po-ana', 'po-bob', 'po-cyd'];
    const anaSales = await sales(ana, [200, 150.5]); // 20 + 15.05
    const [bobSale] = await sales(bob, [120]); // 12
    await sales(cyd, [40]); // 4: under the minimum

    // A CASH reward is never a code, nor redeemed by hand.
    expect(statusAndCode(await app.api.post(`/rewards/${bobSale.rewardId}/claim`))).toEqual([422, 'REWARD_NOT_CLAIMABLE']);
    expect(statusAndCode(await app.api.post('/rewards/redeem', { rewardId: bobSale.rewardId, userId: bob }))).toEqual([422, 'REWARD_NOT_REDEEMABLE']);

    const due = expectStatus(await app.api.get('/payouts/due?minimumAmount=10'), [200], 'due').body.due;
    expect(mine(due, [ana, bob, cyd]).map((d: any) => [d.userId, d.amount, d.rewardCount, d.payable])).toEqual([
      [ana, 35.05, 2, true],
      [bob, 12, 1, true],
      [cyd, 4, 1, false],
    ]);

    const made = expectStatus(await createPayouts({ minimumAmount: 10, currency: 'USD' }), [201], 'payouts').body.payouts;
    const [anaPayout, bobPayout] = [ana, bob].map((u) => made.find((p: any) => p.userId === u));
    expect(mine(made, [cyd])).toEqual([]);
    expect(anaPayout).toMatchObject({ amount: 35.05, rewardsAmount: 35.05, clawbacksAmount: 0, rewardCount: 2, clawbackCount: 0, currency: 'USD', status: 'PENDING', paidAt: null });
    // In a payout: no longer due, and never in a second one.
    expect(mine(expectStatus(await createPayouts({ minimumAmount: 10 }), [201], 'again').body.payouts, [ana, bob])).toEqual([]);
    expect((await reward(anaSales[0].rewardId)).payoutId).toBe(anaPayout.id);
    expect(statusAndCode(await app.api.post(`/rewards/${anaSales[0].rewardId}/cancel`, { note: 'no' }))).toEqual([409, 'REWARD_IN_PAYOUT']);

    // A refund of half of ana's first sale while her payout is PENDING: the payout stands, what she no longer earned is owed.
    const refund = expectStatus(await app.api.post(`/conversions/${anaSales[0].conversionId}/reversals`, { reason: 'REFUND', amount: 100 }), [201], 'refund');
    expect(refund.body.rewards.find((r: any) => r.reward.side === 'REFERRER')).toMatchObject({ effect: 'CLAWBACK', clawbackAmount: 10 });

    const detail = expectStatus(await app.api.get(`/payouts/${anaPayout.id}`), [200], 'detail').body;
    expect(detail.rewards.map((r: any) => [r.id, r.amount])).toEqual(anaSales.map((s, i) => [s.rewardId, [20, 15.05][i]]));
    expect(detail.clawbacks).toEqual([]);

    const paid = expectStatus(await app.api.post(`/payouts/${anaPayout.id}/paid`, { externalReference: 'wire-001' }), [200], 'paid').body.payout;
    expect(paid).toMatchObject({ status: 'PAID', externalReference: 'wire-001' });
    expect(Date.parse(paid.paidAt)).toBeGreaterThan(0);
    expect((await reward(anaSales[1].rewardId)).status).toBe('PAID');
    expect(expectStatus(await app.api.post(`/payouts/${anaPayout.id}/paid`, { externalReference: 'wire-001' }), [200], 'paid again').body.payout.paidAt).toBe(paid.paidAt);
    expect(statusAndCode(await app.api.post(`/payouts/${anaPayout.id}/paid`, { externalReference: 'wire-002' }))).toEqual([409, 'INVALID_TRANSITION']);
    expect(statusAndCode(await app.api.post(`/payouts/${anaPayout.id}/failed`, { reason: 'late' }))).toEqual([409, 'INVALID_TRANSITION']);

    // Bob's transfer fails: his reward is due again and goes into his next payout.
    const failed = expectStatus(await app.api.post(`/payouts/${bobPayout.id}/failed`, { reason: 'IBAN closed' }), [200], 'failed').body.payout;
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'IBAN closed' });
    expect((await reward(bobSale.rewardId))).toMatchObject({ status: 'APPROVED', payoutId: null });

    // Ana's next sale pays 8, less the 10 she owes: nothing is due (she is listed at -2); a later one of 50 nets it.
    await sales(ana, [80]);
    const anaDue = mine(expectStatus(await app.api.get('/payouts/due'), [200], 'due').body.due, [ana]);
    expect(anaDue.map((d: any) => [d.amount, d.rewardsAmount, d.clawbacksAmount, d.payable])).toEqual([[-2, 8, 10, false]]);
    await sales(ana, [50]);
    const second = expectStatus(await createPayouts({ userId: ana }), [201], 'netted').body.payouts;
    expect(second.map((p: any) => [p.userId, p.amount, p.rewardsAmount, p.clawbacksAmount, p.rewardCount, p.clawbackCount])).toEqual([[ana, 3, 13, 10, 2, 1]]);
    const bobAgain = mine(expectStatus(await createPayouts({ minimumAmount: 10 }), [201], 'bob again').body.payouts, [bob]);
    expect(bobAgain.map((p: any) => [p.amount, p.rewardCount])).toEqual([[12, 1]]);

    // The clawback is deducted by her second payout, and settled when it is paid.
    const owed = () => app.api.get(`/rewards/clawbacks?userId=${ana}`);
    expect((await owed()).body.clawbacks[0]).toMatchObject({ amount: 10, payoutId: second[0].id, settledAt: null });
    expectStatus(await app.api.post(`/payouts/${second[0].id}/paid`, { externalReference: 'wire-003' }), [200], 'paid second');
    const settled = (await owed()).body;
    expect([Date.parse(settled.clawbacks[0].settledAt) > 0, settled.totals]).toEqual([true, []]);

    // Lists, newest first, by status and referrer.
    const anaList = expectStatus(await app.api.get(`/payouts?userId=${ana}`), [200], 'list').body;
    expect(anaList.payouts.map((p: any) => p.id)).toEqual([second[0].id, anaPayout.id]);
    expect(anaList.pagination).toMatchObject({ totalItems: 2 });
    const failedList = (await app.api.get('/payouts?status=FAILED')).body.payouts.map((p: any) => p.id);
    expect(failedList).toContain(bobPayout.id);

    // Each step's webhook event, once.
    const events = (type: string) => readEvents(type, (e) => [anaPayout.id, bobPayout.id].includes(e.data.payoutId as string));
    expect((await eventually(() => events('payout.created'), (e) => e.length >= 2)).length).toBe(2);
    expect((await eventually(() => events('payout.paid'), (e) => e.length >= 1))[0].data).toMatchObject({ payoutId: anaPayout.id, amount: 35.05, externalReference: 'wire-001' });
    expect((await eventually(() => events('payout.failed'), (e) => e.length >= 1))[0].data).toMatchObject({ payoutId: bobPayout.id, failureReason: 'IBAN closed' });

    expect(statusAndCode(await app.api.get('/payouts/po_missing'))).toEqual([404, 'NOT_FOUND']);
    expect(statusAndCode(await createPayouts({ minimumAmount: -1 }))).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('exports payouts as CSV that parses back to the API figures, with a formula-looking user id neutralised', async () => {
    const formula = '=HYPERLINK("http://evil.example")';
    await sales(formula, [90]);
    await sales('po-csv', [33.3]);
    const made = expectStatus(await createPayouts(), [201], 'payouts').body.payouts;
    const from = made.map((p: any) => p.createdAt).sort()[0];
    const res = await fetch(`${app.api.baseUrl}/payouts/export?status=PENDING&from=${encodeURIComponent(from)}`, { headers: { authorization: `Bearer ${app.apiKey}` } });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'text/csv; charset=utf-8']);
    const rows: Record<string, string>[] = parse(await res.text(), { columns: true });
    expect(Object.keys(rows[0]).slice(0, 11)).toEqual(['id', 'userId', 'amount', 'currency', 'rewardsAmount', 'clawbacksAmount', 'rewardCount', 'clawbackCount', 'status', 'externalReference', 'createdAt']);
    const listed = (await app.api.get('/payouts?status=PENDING&limit=100')).body.payouts.filter((p: any) => p.createdAt >= from);
    expect(rows.map((r) => r.id)).toEqual(listed.map((p: any) => p.id));
    for (const [row, payout] of rows.map((r, i) => [r, listed[i]] as const)) {
      expect([row.amount, row.rewardsAmount, row.rewardCount, row.status, row.currency].map(String)).toEqual(
        [payout.amount, payout.rewardsAmount, payout.rewardCount, payout.status, payout.currency].map(String),
      );
    }
    const evil = rows.find((r) => r.userId.includes('HYPERLINK'))!;
    expect(evil.userId).toBe(`'${formula}`);
    expect(rows.find((r) => r.userId === 'po-csv')!.amount).toBe('3.33');
  });

  it('puts each reward in one payout when 50 POST /payouts race', async () => {
    const campaign = await createCampaign(app, { name: 'Race', fraud: { flagThreshold: 100 }, referrerReward: { amount: 7, fulfillmentType: 'CASH' } });
    const users = Array.from({ length: 10 }, (_, i) => `race-${i}`);
    const rewardIds = (await Promise.all(users.map((u) => sales(u, [10, 10, 10], campaign.id)))).flat().map((s) => s.rewardId);
    const answers = await Promise.all(Array.from({ length: 50 }, () => createPayouts({ minimumAmount: 1 })));
    expect([...new Set(answers.map((a) => a.status))]).toEqual([201]);
    const payouts = mine(answers.flatMap((a) => a.body.payouts), users);
    expect(payouts.map((p: any) => p.userId).sort()).toEqual([...users].sort());
    expect(payouts.every((p: any) => p.amount === 21 && p.rewardCount === 3)).toBe(true);
    const inPayouts = (await Promise.all(payouts.map((p: any) => app.api.get(`/payouts/${p.id}`)))).flatMap((r) => r.body.rewards.map((x: any) => x.id));
    expect(inPayouts.sort()).toEqual([...rewardIds].sort());
  });

  it('never pays a reward twice nor loses one when reversals race payouts', async () => {
    const campaign = await createCampaign(app, { name: 'Reversal race', fraud: { flagThreshold: 100 }, referrerReward: { percent: 10, fulfillmentType: 'CASH' } });
    const users = Array.from({ length: 6 }, (_, i) => `rr-${i}`);
    const all = await Promise.all(users.map((u) => sales(u, [100, 100], campaign.id)));
    // Half of each referrer's first sale refunded while payouts are being made.
    await Promise.all([
      ...all.map((s) => app.api.post(`/conversions/${s[0].conversionId}/reversals`, { reason: 'REFUND', amount: 50 })),
      createPayouts(),
      createPayouts(),
    ]);
    for (const [i, user] of users.entries()) {
      const rewards = await Promise.all(all[i].map((s) => reward(s.rewardId)));
      // What the referrer is worth: each reward less what it owes back (10 + 5 after the refund).
      expect(cents(rewards.reduce((sum, r) => sum + r.amount - r.clawedBack, 0))).toBe(1500);
      const payouts = (await app.api.get(`/payouts?userId=${user}`)).body.payouts;
      const due = mine((await app.api.get('/payouts/due')).body.due, [user]);
      const owedNotInPayout = (await app.api.get(`/rewards/clawbacks?userId=${user}`)).body.clawbacks.filter((c: any) => !c.payoutId);
      // Pending payouts + what is still payable - what is owed and not deducted: always the referrer's worth.
      const pending = payouts.reduce((sum: number, p: any) => sum + p.amount, 0);
      const payable = due.reduce((sum: number, d: any) => sum + d.rewardsAmount, 0);
      const owed = owedNotInPayout.reduce((sum: number, c: any) => sum + c.amount, 0);
      expect([user, cents(pending + payable - owed)]).toEqual([user, 1500]);
      // Each reward in at most one payout.
      const inPayouts = (await Promise.all(payouts.map((p: any) => app.api.get(`/payouts/${p.id}`)))).flatMap((r) => r.body.rewards.map((x: any) => x.id));
      expect(new Set(inPayouts).size).toBe(inPayouts.length);
    }
  });
});
