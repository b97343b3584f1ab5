import type { Logger } from '@ris/logging';
import { compareCounters, reconcileDrift, type CounterDrift } from '@ris/mongo';
import type { ClickRepository } from '../clicks/click.repository';
import { countedAt } from '../conversions/conversion-status';
import type { ConversionRepository } from '../conversions/conversion.repository';
import type { ReferralRepository } from '../referrals/referral.repository';
import type { CampaignBucketDoc } from './campaign-bucket.model';
import type { BucketFields, CampaignBucketRepository } from './campaign-bucket.repository';
import { bucketTargets } from './campaign-buckets';
import type { CampaignStatsDoc } from './campaign-stats.model';
import type { CampaignStatsRepository } from './campaign-stats.repository';

/** The counters recounted; totalRewardValue is not: its rewards live in the reward service. */
const COUNTED = ['totalReferrals', 'totalClicks', 'totalConversions', 'completedReferrals'] as const;
/** A time bucket's counters recounted (not rewardValue, as above). */
const BUCKET_COUNTED = ['referrals', 'clicks', 'conversions'] as const;

export interface StatsReport {
  campaigns: number;
  /** Documents of the campaigns' hours and days checked (campaign_buckets). */
  buckets: number;
  drifted: Array<CounterDrift & { fixed: boolean }>;
}

/** What the recount reads (every app's, or one app's) and what a fix writes. */
export interface RecountSources {
  referrals: ReferralRepository;
  clicks: ClickRepository;
  conversions: ConversionRepository;
  stats: CampaignStatsRepository;
  buckets: CampaignBucketRepository;
}

type Tally = { appId: string; counts: Map<string, number>; completed: Set<string> };
type BucketTally = BucketFields & { appId: string; counts: Map<string, number> };

/** A stored bucket document's recounted counters. */
const storedBucketCounts = (doc: CampaignBucketDoc) => new Map(BUCKET_COUNTED.map((field) => [field, doc[field] ?? 0]));

/**
 * The counters as the service keeps them, recounted from the documents:
 * a referral, a click, a level-1 conversion record that converted
 * (CONVERTED or FLAGGED: a review never takes the count back), and each
 * referral with such a conversion once (completedReferrals); and the same
 * per UTC hour and day (a referral at its creation, a click when clicked,
 * a conversion when converted). `buckets` collects the bucket documents
 * seen, with what a fix must create them with.
 */
async function pass(
  sources: RecountSources,
  appId: string | undefined,
  report: { campaigns: number; buckets: number },
  buckets: Map<string, BucketFields>,
): Promise<CounterDrift[]> {
  const tallies = new Map<string, Tally>();
  const bucketTallies = new Map<string, BucketTally>();
  const tally = (doc: { appId: string; campaignId: string }) => {
    const t = tallies.get(doc.campaignId) ?? { appId: doc.appId, counts: new Map<string, number>(), completed: new Set<string>() };
    tallies.set(doc.campaignId, t);
    return t;
  };
  const add = (t: Tally, field: string) => t.counts.set(field, (t.counts.get(field) ?? 0) + 1);
  const addToBucket = (doc: { appId: string; campaignId: string }, at: Date, field: (typeof BUCKET_COUNTED)[number]) => {
    for (const { _id, ...fields } of bucketTargets(doc.campaignId, at)) {
      const b = bucketTallies.get(_id) ?? { appId: doc.appId, campaignId: doc.campaignId, ...fields, counts: new Map<string, number>() };
      bucketTallies.set(_id, b);
      b.counts.set(field, (b.counts.get(field) ?? 0) + 1);
    }
  };
  for await (const r of sources.referrals.countRows(appId)) {
    add(tally(r), 'totalReferrals');
    addToBucket(r, r.createdAt, 'referrals');
  }
  for await (const c of sources.clicks.countRows(appId)) {
    add(tally(c), 'totalClicks');
    addToBucket(c, c.clickedAt, 'clicks');
  }
  for await (const c of sources.conversions.countRows(appId)) {
    const t = tally(c);
    add(t, 'totalConversions');
    t.completed.add(c.referralId ?? '');
    addToBucket(c, countedAt(c), 'conversions');
  }
  const stored = new Map<string, CampaignStatsDoc>();
  for await (const doc of sources.stats.all(appId)) stored.set(doc._id, doc);
  const drift: CounterDrift[] = [];
  for (const id of new Set([...stored.keys(), ...tallies.keys()])) {
    const doc = stored.get(id);
    const t = tallies.get(id);
    const expected = new Map<string, number>(COUNTED.map((field) => [field, field === 'completedReferrals' ? (t?.completed.size ?? 0) : (t?.counts.get(field) ?? 0)]));
    const kept = new Map<string, number>(COUNTED.map((field) => [field, doc?.[field] ?? 0]));
    drift.push(...compareCounters(doc?.appId ?? t!.appId, id, kept, expected));
  }
  report.campaigns = new Set([...stored.keys(), ...tallies.keys()]).size;

  const storedBuckets = new Map<string, CampaignBucketDoc>();
  for await (const doc of sources.buckets.all(appId)) storedBuckets.set(doc._id, doc);
  // In order of id (a campaign's days and hours in time order), so a report reads the same every run.
  for (const id of [...new Set([...storedBuckets.keys(), ...bucketTallies.keys()])].sort()) {
    const doc = storedBuckets.get(id);
    const t = bucketTallies.get(id);
    const source = (doc ?? t)!;
    buckets.set(id, { campaignId: source.campaignId, interval: source.interval, start: source.start, partition: source.partition });
    drift.push(...compareCounters(source.appId, id, doc ? storedBucketCounts(doc) : new Map(), t?.counts ?? new Map()));
  }
  report.buckets = buckets.size;
  return drift;
}

/**
 * Recounts the campaign counters behind GET /stats and their hourly and
 * daily buckets behind GET /stats/timeseries, and reports where they differ
 * (a process that died between a write and its increment leaves one short:
 * a referral, a conversion, or a batch of clicks; and a release before the
 * buckets existed left them empty). With `fix`, each drift two passes see
 * alike is closed (closeDrift).
 */
export async function rebuildCampaignStats(
  sources: RecountSources,
  logger: Logger,
  options: { appId?: string; fix: boolean; settleMs?: number },
): Promise<StatsReport> {
  const report = { campaigns: 0, buckets: 0 };
  const buckets = new Map<string, BucketFields>();
  const drifted = await reconcileDrift(() => pass(sources, options.appId, report, buckets), options, async (d) => {
    const bucket = buckets.get(d.docId);
    if (bucket) await sources.buckets.closeDrift(d, bucket);
    else await sources.stats.closeDrift(d);
    logger.info({ ...d }, bucket ? 'campaign bucket corrected' : 'campaign counter corrected');
  });
  return { ...report, drifted };
}
