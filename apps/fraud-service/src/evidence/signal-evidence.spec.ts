import type { Client } from '@connectrpc/connect';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import { SharedAttribute, SignalKind, type FraudService } from '@ris/contracts';
import { fraudOnTestDatabase } from '../testing/fraud-on-test-database';

// GetSignalEvidence as the referral service calls it, against the real
// database: signals stored by scoring and clicks, read back for a flag.
describe('FraudService evidence of a scored referral or conversion', () => {
  let fraud: Client<typeof FraudService>;
  let stop: () => Promise<void>;
  const t0 = Date.now() - 3 * 3_600_000;
  const at = (minutes: number) => timestampFromDate(new Date(t0 + minutes * 60_000));
  const app = 'app_ev';

  beforeAll(async () => {
    ({ fraud, stop } = await fraudOnTestDatabase('fraud_evidence'));

    // The referrer made the code from 203.0.113.7 long before; the referee
    // clicked it from that IP, converted 4 s later; around then, two other
    // referees converted from the same IP, one with the same device; another
    // IP's conversion, and one from that IP far outside the window, do not link.
    await fraud.scoreReferral({ appId: app, campaignId: 'cmp_1', referralId: 'ref_1', referralCode: 'CODE1', referrerId: 'rita', context: { ip: '203.0.113.7', deviceId: 'dev-r', email: 'rita@example.com' }, flagThreshold: 50, occurredAt: at(-600) });
    await fraud.recordClicks({
      clicks: [
        { appId: app, campaignId: 'cmp_1', clickId: 'clk_early', referralCode: 'CODE1', referrerId: 'rita', context: { ip: '198.51.100.1' }, occurredAt: at(-30) },
        { appId: app, campaignId: 'cmp_1', clickId: 'clk_1', referralCode: 'CODE1', referrerId: 'rita', context: { ip: '203.0.113.7', deviceId: 'dev-x' }, occurredAt: at(0) },
      ],
    });
    const convert = (refereeId: string, minutes: number, context: { ip?: string; deviceId?: string; email?: string }) =>
      fraud.scoreConversion({ appId: app, campaignId: 'cmp_1', conversionId: `conv_${refereeId}`, referralCode: 'CODE1', referrerId: 'rita', refereeId, context, flagThreshold: 50, occurredAt: at(minutes) });
    await convert('sam', 10, { ip: '203.0.113.7', deviceId: 'dev-s' });
    await convert('tom', 20, { ip: '203.0.113.7', deviceId: 'dev-x', email: 'Tom@example.com' });
    await convert('uma', 30, { ip: '198.51.100.9', email: 'tom@example.com' });
    await convert('vic', 200, { ip: '203.0.113.7' });
    // Another app's signal from the same IP is never evidence here.
    await fraud.scoreConversion({ appId: 'app_other', campaignId: 'cmp_9', conversionId: 'conv_z', referralCode: 'CODE9', referrerId: 'zed', refereeId: 'zoe', context: { ip: '203.0.113.7' }, flagThreshold: 50, occurredAt: at(21) });
  });

  afterAll(() => stop());

  const evidenceOf = (refereeId: string, limit = 0) =>
    fraud.getSignalEvidence({ appId: app, kind: SignalKind.CONVERSION, campaignId: 'cmp_1', refereeId, limit });

  it("answers a conversion's context, its click, and the records sharing its IP, device or email within the window", async () => {
    const res = await evidenceOf('tom');
    expect(res).toMatchObject({ found: true, windowMinutes: 60, context: { ip: '203.0.113.7', deviceId: 'dev-x', email: 'Tom@example.com' } });
    expect(timestampDate(res.at!).getTime()).toBe(t0 + 20 * 60_000);
    // The latest click on the code from the referee's device or IP before it.
    expect(res.clickId).toBe('clk_1');
    expect(timestampDate(res.clickedAt!).getTime()).toBe(t0);
    const linked = res.linked.map((l) => [SignalKind[l.kind], l.clickId ?? l.refereeId ?? l.referrerId, l.shared.map((s) => SharedAttribute[s])]);
    expect(linked).toEqual([
      // The referrer's own referral first: it shares the IP (what SAME_IP compared), 10 hours earlier.
      ['REFERRAL', 'rita', ['IP']],
      // Then the window (±60 min), newest first. uma's email is tom's in another case: not the same address.
      ['CONVERSION', 'sam', ['IP']],
      ['CLICK', 'clk_1', ['IP', 'DEVICE_ID']],
    ]);
  });

  it('links by email, and bounds the list by limit', async () => {
    await fraud.scoreConversion({ appId: app, campaignId: 'cmp_2', conversionId: 'conv_w', referralCode: 'CODE2', referrerId: 'rob', refereeId: 'wes', context: { email: 'Tom@example.com' }, flagThreshold: 50, occurredAt: at(25) });
    const res = await evidenceOf('tom');
    expect(res.linked.find((l) => l.refereeId === 'wes')).toMatchObject({ campaignId: 'cmp_2', kind: SignalKind.CONVERSION, shared: [SharedAttribute.EMAIL] });
    expect((await evidenceOf('tom', 2)).linked.map((l) => l.refereeId ?? l.referrerId)).toEqual(['rita', 'wes']);
    await expect(evidenceOf('tom', 101)).rejects.toThrow(/limit/);
  });

  it("answers a referral's signal, and found: false for a subject never scored", async () => {
    const referral = await fraud.getSignalEvidence({ appId: app, kind: SignalKind.REFERRAL, campaignId: 'cmp_1', referrerId: 'rita' });
    expect(referral).toMatchObject({ found: true, context: { ip: '203.0.113.7', email: 'rita@example.com' } });
    expect(referral.clickId).toBeUndefined();
    expect(referral.linked).toEqual([]);
    expect(await evidenceOf('nobody')).toMatchObject({ found: false, linked: [] });
    expect(await fraud.getSignalEvidence({ appId: 'app_other', kind: SignalKind.CONVERSION, campaignId: 'cmp_1', refereeId: 'tom' })).toMatchObject({ found: false });
  });
});
