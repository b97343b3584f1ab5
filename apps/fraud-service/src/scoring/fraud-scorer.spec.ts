import mongoose, { type Connection } from 'mongoose';
import { infraUrl, testDatabase } from '@ris/testing';
import { windowsOnTestRedis } from '../testing/fraud-on-test-database';
import { FraudScorer } from './fraud-scorer';
import { signalModel } from '../signals/signal.model';
import { SignalRepository, type NewSignal } from '../signals/signal.repository';
import { ruleSettings } from './rules/facts-fixture';
import { FRAUD_RULES } from './rules/rule-set';
import { SignalHistory } from './signal-history';

// Against the real database and Redis: two scorers on two connections stand
// for two replicas of the service, which must see each other's signals
// (the velocity windows are shared through Redis).
describe('fraud scoring against stored signals', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let replicaDb: Connection;
  let replicaA: FraudScorer;
  let replicaB: FraudScorer;
  let closeWindows: () => Promise<void>;
  const at = new Date();

  const conversion = (id: string, overrides: Partial<NewSignal> = {}): NewSignal => ({
    _id: `CONVERSION:${id}`,
    kind: 'CONVERSION',
    campaignId: 'cmp_1',
    referralCode: 'CODE2345',
    referrerId: 'alice',
    refereeId: `referee-${id}`,
    ip: null,
    userAgent: null,
    deviceId: null,
    email: null,
    at,
    ...overrides,
  });

  beforeAll(async () => {
    db = await testDatabase('fraud');
    replicaDb = await mongoose.createConnection(infraUrl('MONGODB_URL'), { dbName: db.name }).asPromise();
    const signalsA = new SignalRepository(db);
    await signalsA.ensureIndexes();
    const shared = await windowsOnTestRedis('fraud_windows');
    closeWindows = shared.close;
    replicaA = new FraudScorer(new SignalHistory(signalsA, shared.windows), FRAUD_RULES, ruleSettings);
    replicaB = new FraudScorer(new SignalHistory(new SignalRepository(replicaDb), shared.windows), FRAUD_RULES, ruleSettings);
  });

  afterAll(async () => {
    await closeWindows();
    await replicaDb.close();
    await db.drop();
  });

  it('counts IP velocity across replicas, per app, and does not count a rescore twice', async () => {
    const ip = '192.0.2.44';
    for (let i = 0; i < 5; i += 1) {
      const scorer = i % 2 === 0 ? replicaA : replicaB;
      const result = await scorer.score({ appId: 'app_a', signal: conversion(`v${i}`, { ip }), referrerEmail: null, flagThreshold: 10 });
      expect(result.reasons).not.toContain('IP_VELOCITY');
    }
    // Another app's traffic from the same IP is not this app's business.
    const otherApp = await replicaB.score({ appId: 'app_b', signal: conversion('o1', { ip }), referrerEmail: null, flagThreshold: 10 });
    expect(otherApp.reasons).toEqual([]);

    const sixth = await replicaB.score({ appId: 'app_a', signal: conversion('v5', { ip }), referrerEmail: null, flagThreshold: 10 });
    expect(sixth).toMatchObject({ flagged: true, reasons: ['IP_VELOCITY'], riskScore: 40 });
    // Scoring the same conversion again (a retry) stores nothing new.
    const again = await replicaA.score({ appId: 'app_a', signal: conversion('v5', { ip }), referrerEmail: null, flagThreshold: 10 });
    expect(again.riskScore).toBe(40);
    expect(await signalModel(db).countDocuments({ appId: 'app_a', ip })).toBe(6);
  });

  it('stores the signals of concurrent scores together, once per subject, and counts them against each other', async () => {
    const ip = '192.0.2.99';
    // Ten referees from one IP at once, one of them twice (a double-submitted conversion): their
    // signals go to the store in shared inserts, each subject once, and the windows see each other.
    const referees = Array.from({ length: 10 }, (_, i) => `burst${i}`);
    const results = await Promise.all(
      [...referees, 'burst0'].map((refereeId, i) =>
        (i % 2 === 0 ? replicaA : replicaB).score({ appId: 'app_g', signal: conversion(refereeId, { refereeId, ip }), referrerEmail: null, flagThreshold: 10 }),
      ),
    );
    expect(await signalModel(db).countDocuments({ appId: 'app_g', ip })).toBe(10);
    // Whatever the order, the later half of the burst sees more than five others from the IP.
    expect(results.filter((r) => r.reasons.includes('IP_VELOCITY')).length).toBeGreaterThanOrEqual(4);
    const after = await replicaA.score({ appId: 'app_g', signal: conversion('late', { refereeId: 'late', ip }), referrerEmail: null, flagThreshold: 10 });
    expect(after.reasons).toContain('IP_VELOCITY');
  });

  it("compares the referee with the referrer's referral signal and finds the fast click", async () => {
    await replicaA.score({
      appId: 'app_c',
      signal: {
        _id: 'REFERRAL:ref_1',
        kind: 'REFERRAL',
        campaignId: 'cmp_1',
        referralCode: 'SELF2345',
        referrerId: 'mallory',
        refereeId: null,
        ip: '203.0.113.77',
        userAgent: 'ua',
        deviceId: 'dev-m',
        email: 'mallory@example.com',
        at: new Date(at.getTime() - 60_000),
      },
      referrerEmail: 'mallory@example.com',
      flagThreshold: 50,
    });
    await replicaB.recordClicks([
      {
        appId: 'app_c',
        signal: {
          ...conversion('click'),
          _id: 'CLICK:clk_1',
          kind: 'CLICK',
          referralCode: 'SELF2345',
          referrerId: 'mallory',
          refereeId: 'sock-puppet',
          at: new Date(at.getTime() - 2000),
        },
      },
    ]);
    const result = await replicaA.score({
      appId: 'app_c',
      signal: conversion('self', {
        referralCode: 'SELF2345',
        referrerId: 'mallory',
        refereeId: 'sock-puppet',
        ip: '203.0.113.77',
        deviceId: 'dev-m',
        email: 'mal.lory+2@example.com',
      }),
      referrerEmail: null,
      flagThreshold: 50,
    });
    expect(result.flagged).toBe(true);
    expect(result.reasons).toEqual(['EMAIL_ALIAS', 'SAME_DEVICE', 'SAME_IP', 'FAST_CONVERSION']);
    expect(result.riskScore).toBe(100);
  });

  it('sees a referee converting through codes of several campaigns', async () => {
    const first = await replicaA.score({
      appId: 'app_d',
      signal: conversion('m1', { campaignId: 'cmp_1', referralCode: 'FIRST234', refereeId: 'hopper' }),
      referrerEmail: null,
      flagThreshold: 30,
    });
    expect(first.reasons).toEqual([]);
    const second = await replicaB.score({
      appId: 'app_d',
      signal: conversion('m2', { campaignId: 'cmp_2', referralCode: 'SECND234', refereeId: 'hopper' }),
      referrerEmail: null,
      flagThreshold: 30,
    });
    expect(second).toMatchObject({ flagged: true, reasons: ['MULTIPLE_CODES'] });
  });

  it('records a batch of clicks of several apps once each, and scores against them', async () => {
    const click = (id: string, refereeId: string, ms: number): NewSignal => ({
      ...conversion(id, { refereeId, at: new Date(at.getTime() - ms) }),
      _id: `CLICK:${id}`,
      kind: 'CLICK',
    });
    const batch = [
      { appId: 'app_e', signal: click('clk_e1', 'quick', 3000) },
      { appId: 'app_e', signal: click('clk_e2', 'patient', 3_600_000) },
      { appId: 'app_f', signal: click('clk_e1', 'quick', 3000) },
    ];
    await replicaA.recordClicks(batch);
    // A retried batch (one click already in) keeps one signal per click.
    await replicaB.recordClicks([batch[0], { appId: 'app_e', signal: click('clk_e3', 'other', 5000) }]);
    expect(await signalModel(db).countDocuments({ appId: 'app_e', kind: 'CLICK' })).toBe(3);
    expect(await signalModel(db).countDocuments({ appId: 'app_f', kind: 'CLICK' })).toBe(1);

    const quick = await replicaB.score({ appId: 'app_e', signal: conversion('e1', { refereeId: 'quick' }), referrerEmail: null, flagThreshold: 10 });
    expect(quick.reasons).toEqual(['FAST_CONVERSION']);
    const patient = await replicaA.score({ appId: 'app_e', signal: conversion('e2', { refereeId: 'patient' }), referrerEmail: null, flagThreshold: 10 });
    expect(patient.reasons).toEqual([]);
  });
});
