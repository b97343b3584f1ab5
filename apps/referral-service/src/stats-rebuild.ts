import type { Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { closeDrift, compareCounters, reconcileDrift, type CounterDrift } from '@ris/mongo';
import { campaignStatsModel, type CampaignStatsDoc } from './campaign-stats.model';
import { clickModel } from './click.model';
import { conversionModel } from './conversion.model';
import { referralModel } from './referral.model';

/** The counters recounted; totalRewardValue is not: its rewards live in the reward service. */
const COUNTED = ['totalReferrals', 'totalClicks', 'totalConversions', 'completedReferrals'] as const;

export interface StatsReport {
  campaigns: number;
  drifted: Array<CounterDrift & { fixed: boolean }>;
}

type Tally = { appId: string; counts: Map<string, number>; completed: Set<string> };

/**
 * The counters as the service keeps them, recounted from the documents:
 * a referral, a click, a level-1 conversion record that converted
 * (CONVERTED or FLAGGED: a review never takes the count back), and each
 * referral with such a conversion once (completedReferrals).
 */
async function pass(db: Connection, appId: string | undefined, report: { campaigns: number }): Promise<CounterDrift[]> {
  const scope = appId ? { appId } : {};
  const tallies = new Map<string, Tally>();
  const tally = (doc: { appId: string; campaignId: string }) => {
    const t = tallies.get(doc.campaignId) ?? { appId: doc.appId, counts: new Map<string, number>(), completed: new Set<string>() };
    tallies.set(doc.campaignId, t);
    return t;
  };
  const add = (t: Tally, field: string) => t.counts.set(field, (t.counts.get(field) ?? 0) + 1);
  type Row = { appId: string; campaignId: string; referralId?: string };
  for await (const r of referralModel(db).find(scope, { appId: 1, campaignId: 1 }).lean<Row>().cursor()) add(tally(r), 'totalReferrals');
  for await (const c of clickModel(db).find(scope, { appId: 1, campaignId: 1 }).lean<Row>().cursor()) add(tally(c), 'totalClicks');
  const converted = { ...scope, level: 1, status: { $in: ['CONVERTED', 'FLAGGED'] } };
  for await (const c of conversionModel(db).find(converted, { appId: 1, campaignId: 1, referralId: 1 }).lean<Row>().cursor()) {
    const t = tally(c);
    add(t, 'totalConversions');
    t.completed.add(c.referralId ?? '');
  }
  const stored = new Map<string, CampaignStatsDoc>();
  for await (const doc of campaignStatsModel(db).find(scope).lean<CampaignStatsDoc>().cursor()) stored.set(doc._id, doc);
  const drift: CounterDrift[] = [];
  for (const id of new Set([...stored.keys(), ...tallies.keys()])) {
    const doc = stored.get(id);
    const t = tallies.get(id);
    const expected = new Map<string, number>(COUNTED.map((field) => [field, field === 'completedReferrals' ? (t?.completed.size ?? 0) : (t?.counts.get(field) ?? 0)]));
    const kept = new Map<string, number>(COUNTED.map((field) => [field, doc?.[field] ?? 0]));
    drift.push(...compareCounters(doc?.appId ?? t!.appId, id, kept, expected));
  }
  report.campaigns = new Set([...stored.keys(), ...tallies.keys()]).size;
  return drift;
}

/**
 * Recounts the campaign counters behind GET /stats and reports where they
 * differ (a process that died between a write and its increment leaves
 * one short: a referral, a conversion, or a batch of clicks). With `fix`,
 * each drift two passes see alike is closed (closeDrift).
 */
export async function rebuildCampaignStats(
  db: Connection,
  logger: Logger,
  options: { appId?: string; fix: boolean; settleMs?: number },
): Promise<StatsReport> {
  const report = { campaigns: 0 };
  const drifted = await reconcileDrift(() => pass(db, options.appId, report), options, async (d) => {
    await closeDrift(campaignStatsModel(db), d, { campaignId: d.docId });
    logger.info({ ...d }, 'campaign counter corrected');
  });
  return { ...report, drifted };
}
