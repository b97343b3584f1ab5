import mongoose, { type Connection } from 'mongoose';
import { createTestApp, e2eStack, eventually, publishEvents, readEvents, type TestApp } from '@ris/testing';
import { ledgerAgreesWithBalance } from './support/ledger-agreement';
import { expectStatus } from './support/referral-scenario';

interface Transaction {
  reason: string;
  cause: string;
  coins: number;
  xp: number;
  sourceId: string;
  actionKey: string | null;
  balanceAfter: { coins: number; xp: number };
  unrecovered: { coins: number; xp: number; tokens: number } | null;
  reversal: { conversionId: string; reversalId: string; reason: string } | null;
}

// The referrer's referral credit in the incentive engine (a
// REFERRAL_REFEREE_ACTION action's coins, given by conversion.created) taken
// back when the conversion is reversed in full (product decisions §3.11 and
// §7.16): a REVERSAL entry, never below zero, the rest recorded as
// unrecovered; a partial reversal or a purchase's takes nothing; a
// redelivered event nothing more.
//
// The engine handles conversion.reversed on one consumer, one event after
// the other in stream order: once a later reversal's entry is there, an
// earlier reversal that should take nothing has been handled (settled()).
describe('referral credits taken back by reversals', () => {
  let app: TestApp;
  let campaignId: string;
  let incentiveDb: Connection;
  let seq = 0;
  const unique = (prefix: string) => `${prefix}-${(seq += 1)}`;

  beforeAll(async () => {
    app = await createTestApp('reversal credits');
    expectStatus(
      await app.api.post('/incentives/actions', { key: 'referee-converted', name: 'Referee converted', type: 'REFERRAL_REFEREE_ACTION', coins: 100, xp: 20 }),
      [201],
      'action',
    );
    campaignId = expectStatus(
      await app.api.post('/campaigns', { name: 'Credits', referrerReward: { percent: 10, fulfillmentType: 'DISCOUNT_CODE' }, recurringMonths: 12 }),
      [201],
      'campaign',
    ).body.campaign.id;
    const stack = e2eStack();
    incentiveDb = await mongoose.createConnection(stack.mongodbUrl, { dbName: `${stack.dbPrefix}incentive` }).asPromise();
  });

  afterAll(() => incentiveDb?.close());

  const balance = async (target: TestApp, userId: string) => expectStatus(await target.api.get(`/incentives/balances/${userId}`), [200], 'balance').body.balance;
  const ledger = async (target: TestApp, userId: string): Promise<Transaction[]> =>
    expectStatus(await target.api.get(`/incentives/balances/${userId}/transactions?limit=100`), [200], 'ledger').body.transactions;
  const reversalsOf = async (target: TestApp, userId: string) => (await ledger(target, userId)).filter((t) => t.reason === 'REVERSAL');
  const reverse = (target: TestApp, conversionId: string, body: Record<string, unknown>) => target.api.post(`/conversions/${conversionId}/reversals`, body);

  /** A conversion of a sale of 100 through a fresh referrer, once the engine has credited them. */
  async function credited(target: TestApp = app, campaign = campaignId) {
    const referrerId = unique('referrer');
    const { referralCode } = expectStatus(await target.api.post('/referrals', { campaignId: campaign, referrerId }), [201], 'referral').body;
    const conversion = expectStatus(await target.api.post('/conversions', { referralCode, refereeId: unique('referee'), amount: 100 }), [201], 'conversion').body;
    return { referrerId, conversionId: conversion.conversionId as string };
  }
  async function creditedNow() {
    const sale = await credited();
    await eventually(() => balance(app, sale.referrerId), (b) => b.referrals === 1);
    return sale;
  }

  /** Every conversion.reversed published so far has been handled: a later full reversal's entry is there. */
  async function settled(): Promise<void> {
    const later = await creditedNow();
    expectStatus(await reverse(app, later.conversionId, { reason: 'OTHER' }), [201], 'later reversal');
    await eventually(() => reversalsOf(app, later.referrerId), (entries) => entries.length === 1);
  }

  it('takes the credit back on a full reversal: one REVERSAL entry, the balance its ledger\'s sum', async () => {
    const { referrerId, conversionId } = await creditedNow();
    expect(await balance(app, referrerId)).toMatchObject({ coins: 100, xp: 20, referrals: 1, coinsEarned: 100, rewardedEvents: 1 });
    const [credit] = await ledger(app, referrerId);
    expect(credit).toMatchObject({ reason: 'ACTION_REWARD', coins: 100, actionKey: 'referee-converted' });

    const reversal = expectStatus(await reverse(app, conversionId, { reason: 'REFUND' }), [201], 'reversal').body.reversal;
    const [entry] = await eventually(() => reversalsOf(app, referrerId), (entries) => entries.length === 1);
    expect(entry).toMatchObject({ reason: 'REVERSAL', cause: 'CONVERSION_REVERSAL', coins: -100, xp: -20, sourceId: credit.sourceId, actionKey: 'referee-converted', balanceAfter: { coins: 0, xp: 0 } });
    // Not earned any more, no longer a referral.
    expect(await balance(app, referrerId)).toMatchObject({ coins: 0, xp: 0, referrals: 0, coinsEarned: 0, rewardedEvents: 0 });
    expect(await ledgerAgreesWithBalance(app.api, referrerId)).toMatchObject({ totals: { coins: 0, xp: 0 }, balance: { coins: 0, xp: 0 }, gapless: true });
    expect(entry).toMatchObject({ unrecovered: { coins: 0, xp: 0, tokens: 0 }, reversal: { conversionId, reversalId: reversal.id, reason: 'REFUND' } });

    // Reversed in full already: answered with the first reversal, and nothing more taken.
    expect((await reverse(app, conversionId, { reason: 'CHARGEBACK' })).status).toBe(200);
    await settled();
    expect((await reversalsOf(app, referrerId)).length).toBe(1);
  });

  it('takes back only what is left of spent coins, never going below zero, and records the rest as unrecovered', async () => {
    const { referrerId, conversionId } = await creditedNow();
    const item = expectStatus(await app.api.post('/incentives/catalog', { name: 'Mug', coinCost: 70, inventory: 10, published: true }), [201], 'item').body.item;
    expectStatus(await app.api.post('/incentives/redeem', { userId: referrerId, itemId: item.id }), [201], 'redeem');
    expect(await balance(app, referrerId)).toMatchObject({ coins: 30, xp: 20 });

    expectStatus(await reverse(app, conversionId, { reason: 'CHARGEBACK' }), [201], 'reversal');
    const [entry] = await eventually(() => reversalsOf(app, referrerId), (entries) => entries.length === 1);
    // The XP was all still there; of the coins, 30.
    expect(entry).toMatchObject({ cause: 'CONVERSION_REVERSAL', coins: -30, xp: -20, balanceAfter: { coins: 0, xp: 0 } });
    expect(entry.unrecovered).toEqual({ coins: 70, xp: 0, tokens: 0 });
    expect(await balance(app, referrerId)).toMatchObject({ coins: 0, referrals: 0, coinsEarned: 0 });
    expect(await ledgerAgreesWithBalance(app.api, referrerId)).toMatchObject({ totals: { coins: 0, xp: 0 }, balance: { coins: 0, xp: 0 }, gapless: true });
    // What was bought stays bought.
    expect((await app.api.get(`/incentives/redemptions?userId=${referrerId}`)).body.pagination.totalItems).toBe(1);
  });

  it("takes nothing back for a partial reversal or a purchase's reversal, and all of it once the rest of the sale is reversed", async () => {
    const { referrerId, conversionId } = await creditedNow();
    expect(await reverse(app, conversionId, { reason: 'REFUND', amount: 40 }).then((r) => r.body.reversal.full)).toBe(false);
    const purchase = expectStatus(await app.api.post(`/conversions/${conversionId}/purchases`, { amount: 50 }), [201], 'purchase').body.purchase;
    expect(await reverse(app, conversionId, { reason: 'REFUND', purchaseId: purchase.id }).then((r) => [r.status, r.body.reversal.full])).toEqual([201, true]);
    await settled();
    expect(await reversalsOf(app, referrerId)).toEqual([]);
    expect(await balance(app, referrerId)).toMatchObject({ coins: 100, referrals: 1 });

    // The rest of the sale: reversed in full now, so the credit goes.
    expect(await reverse(app, conversionId, { reason: 'REFUND' }).then((r) => [r.status, r.body.reversal.full, r.body.reversal.amount])).toEqual([201, true, 60]);
    const [entry] = await eventually(() => reversalsOf(app, referrerId), (entries) => entries.length === 1);
    expect(entry.coins).toBe(-100);
    expect(await balance(app, referrerId)).toMatchObject({ coins: 0, referrals: 0 });
  });

  it('takes nothing more when the reversal, or the conversion, is delivered again', async () => {
    const { referrerId, conversionId } = await creditedNow();
    const reversalId = expectStatus(await reverse(app, conversionId, { reason: 'REFUND' }), [201], 'reversal').body.reversal.id;
    await eventually(() => reversalsOf(app, referrerId), (entries) => entries.length === 1);

    // The same events again, as a redelivery would bring them (without JetStream's de-duplication).
    const [reversed] = await readEvents('conversion.reversed', (e) => e.data.reversalId === reversalId && e.data.level === 1);
    const [created] = await readEvents('conversion.created', (e) => e.data.conversionId === conversionId);
    await publishEvents([reversed, created], { dedupe: false });
    await settled();
    expect((await ledger(app, referrerId)).map((t) => [t.reason, t.coins])).toEqual([
      ['REVERSAL', -100],
      ['ACTION_REWARD', 100],
    ]);
    expect(await balance(app, referrerId)).toMatchObject({ coins: 0, referrals: 0 });
  });

  it('takes back a credit written after the reversal was handled', async () => {
    // An app without the action yet: its conversion credits nothing, and its reversal finds nothing to take back.
    const late = await createTestApp('reversal credits late');
    const lateCampaign = expectStatus(await late.api.post('/campaigns', { name: 'Late', referrerReward: { amount: 10, fulfillmentType: 'DISCOUNT_CODE' } }), [201], 'campaign').body
      .campaign.id;
    const { referrerId, conversionId } = await credited(late, lateCampaign);
    expectStatus(await reverse(late, conversionId, { reason: 'CANCELLATION' }), [201], 'reversal');
    // The engine has the reversal on record.
    await eventually(() => incentiveDb.collection('conversion_reversals').findOne({ appId: late.appId, conversionId }), (doc) => doc !== null);

    // The action now exists, and conversion.created comes again (as it would when its consumer lags behind the
    // reversal's): the credit is written, then taken back at once.
    expectStatus(await late.api.post('/incentives/actions', { key: 'converted', name: 'Converted', type: 'REFERRAL_REFEREE_ACTION', coins: 40 }), [201], 'action');
    const [created] = await readEvents('conversion.created', (e) => e.data.conversionId === conversionId);
    await publishEvents([created], { dedupe: false });
    const entries = await eventually(() => ledger(late, referrerId), (list) => list.length === 2);
    expect(entries.map((t) => [t.reason, t.coins])).toEqual([
      ['REVERSAL', -40],
      ['ACTION_REWARD', 40],
    ]);
    expect(await balance(late, referrerId)).toMatchObject({ coins: 0, referrals: 0 });
  });
});
