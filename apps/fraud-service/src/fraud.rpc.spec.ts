import type { Client } from '@connectrpc/connect';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { FraudService } from '@ris/contracts';
import type { testDatabase } from '@ris/testing';
import { signalModel } from './signals/signal.model';
import { fraudOnTestDatabase } from './testing/fraud-on-test-database';

// The RPC as the referral service calls it (an in-process Connect
// transport), against the real database: what a signal is keyed by.
describe('FraudService signals are keyed by their subject', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let fraud: Client<typeof FraudService>;
  let stop: () => Promise<void>;
  const occurredAt = timestampFromDate(new Date());

  beforeAll(async () => {
    ({ db, fraud, stop } = await fraudOnTestDatabase('fraud_rpc'));
  });

  afterAll(async () => {
    await stop();
  });

  const convert = (refereeId: string, conversionId: string) =>
    fraud.scoreConversion({
      appId: 'app_race',
      campaignId: 'cmp_1',
      conversionId,
      referralCode: 'RACE2345',
      referrerId: 'carol',
      refereeId,
      context: { ip: `198.51.100.${refereeId.length}` },
      flagThreshold: 50,
      occurredAt,
    });

  it('counts a conversion submitted twice at once (one attempt loses with 409) once against its referrer', async () => {
    // Five referees, each converting twice in parallel under two attempt ids:
    // the referral service lets one attempt in, but scores both first.
    for (const referee of ['r1', 'r22', 'r333', 'r4444', 'r55555']) {
      await Promise.all([convert(referee, `conv_${referee}_a`), convert(referee, `conv_${referee}_b`)]);
    }
    expect(await signalModel(db).countDocuments({ appId: 'app_race', kind: 'CONVERSION' })).toBe(5);

    // The referrer has five other conversions, below the limit of ten: keyed
    // by attempt they were ten, and this clean conversion was flagged.
    const sixth = await convert('r666666', 'conv_r666666');
    expect(sixth.assessment?.reasons ?? []).not.toContain('REFERRER_VELOCITY');
    expect(sixth.assessment?.flagged).toBe(false);
  });

  it('keeps one signal per referrer and campaign across referral attempts', async () => {
    const score = (referralId: string, campaignId: string) =>
      fraud.scoreReferral({
        appId: 'app_race',
        campaignId,
        referralId,
        referralCode: `CODE${referralId.slice(-4)}`,
        referrerId: 'dave',
        context: { ip: '203.0.113.5' },
        flagThreshold: 50,
        occurredAt,
      });
    await Promise.all([score('ref_aaaa', 'cmp_1'), score('ref_bbbb', 'cmp_1')]);
    await score('ref_cccc', 'cmp_2');
    expect(await signalModel(db).countDocuments({ appId: 'app_race', kind: 'REFERRAL', referrerId: 'dave' })).toBe(2);
  });
});
