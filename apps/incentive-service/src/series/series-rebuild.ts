import type { Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { compareCounters, reconcileDrift, type CounterDrift } from '@ris/mongo';
import type { ActiveUserDoc } from './active-user.model';
import { ActiveUserRepository } from './active-user.repository';
import type { IncentiveBucketDoc } from './incentive-bucket.model';
import { IncentiveBucketRepository, type IncentiveBucketFields } from './incentive-bucket.repository';
import { IncentiveEventRepository } from '../events/incentive-event.repository';
import { ACTION_FIELDS, ENGINE, ENGINE_FIELDS, Increments, activeUserMarkers, actionSubject, entryFigures, eventFigures } from './incentive-series';
import { LedgerEntryRepository } from '../ledger/ledger-entry.repository';

export interface SeriesReport {
  /** Bucket documents checked (actions' and the engine's hours and days). */
  buckets: number;
  drifted: Array<CounterDrift & { fixed: boolean }>;
  /** Active-user markers the events call for and the store lacks (inserted with fix). */
  missingMarkers: number;
}

const COUNTERS = [...new Set([...ACTION_FIELDS, ...ENGINE_FIELDS])];

const storedCounts = (doc: IncentiveBucketDoc) => new Map(COUNTERS.map((field) => [field, doc[field] ?? 0]));

/**
 * One recount: every event (its action's figures, the engine's events, its
 * user's markers), every ledger entry (the engine's issued and redeemed
 * figures) and, from the markers the events call for, each engine bucket's
 * active users; compared with the stored buckets. `fields` collects what a
 * fix creates a missing bucket with, `missing` the markers to insert.
 */
async function pass(
  db: Connection,
  buckets: IncentiveBucketRepository,
  activeUsers: ActiveUserRepository,
  appId: string | undefined,
  fields: Map<string, IncentiveBucketFields>,
  missing: Map<string, ActiveUserDoc>,
): Promise<CounterDrift[]> {
  const expected = new Increments();
  const markers = new Map<string, ActiveUserDoc>();
  for await (const event of new IncentiveEventRepository(db).all(appId)) {
    expected.add(event.appId, actionSubject(event.actionKey), event.createdAt, eventFigures(event) as Record<string, number | undefined>);
    expected.add(event.appId, ENGINE, event.createdAt, { events: 1 });
    for (const marker of activeUserMarkers(event.appId, event.userId, event.createdAt)) markers.set(marker._id, marker);
  }
  for await (const entry of new LedgerEntryRepository(db).all(appId)) {
    expected.add(entry.appId, ENGINE, entry.createdAt, entryFigures([entry]) as Record<string, number | undefined>);
  }
  for (const marker of markers.values()) expected.add(marker.appId, ENGINE, marker.start, { activeUsers: 1 }, marker.interval);

  const stored = new Map<string, IncentiveBucketDoc>();
  for await (const doc of buckets.all(appId)) stored.set(doc._id, doc);
  const drift: CounterDrift[] = [];
  fields.clear();
  // In order of id (a subject's days and hours in time order), so a report reads the same every run.
  for (const id of [...new Set([...stored.keys(), ...expected.byBucket.keys()])].sort()) {
    const doc = stored.get(id);
    const want = expected.byBucket.get(id);
    const { subject, interval, start, partition } = (doc ?? want?.fields)!;
    fields.set(id, { subject, interval, start, partition });
    drift.push(...compareCounters(doc?.appId ?? want!.appId, id, doc ? storedCounts(doc) : new Map(), new Map(Object.entries(want?.inc ?? {}))));
  }

  missing.clear();
  const present = new Set<string>();
  for await (const marker of activeUsers.all(appId)) present.add(marker._id);
  for (const [id, marker] of markers) if (!present.has(id)) missing.set(id, marker);
  return drift;
}

/**
 * Recounts the incentive series behind GET /incentives/actions/{key}/timeseries
 * and GET /incentives/stats/timeseries from the events and the ledger, and
 * reports where the buckets differ (a process that died between a write and
 * its increment leaves one short; an event finished by the recovery pass
 * after its first holder had counted it leaves one long; a release before
 * the series left them empty). With `fix`, the missing active-user markers
 * are inserted and each drift two passes see alike is closed (closeDrift:
 * on FerretDB with the incentive service stopped).
 */
export async function rebuildSeries(db: Connection, logger: Logger, options: { appId?: string; fix: boolean; settleMs?: number }): Promise<SeriesReport> {
  const buckets = new IncentiveBucketRepository(db);
  const activeUsers = new ActiveUserRepository(db);
  const fields = new Map<string, IncentiveBucketFields>();
  const missing = new Map<string, ActiveUserDoc>();
  const drifted = await reconcileDrift(() => pass(db, buckets, activeUsers, options.appId, fields, missing), options, async (d) => {
    await buckets.closeDrift(d, fields.get(d.docId)!);
    logger.info({ ...d }, 'incentive bucket corrected');
  });
  const missingMarkers = missing.size;
  if (options.fix && missing.size > 0) await activeUsers.mark([...missing.values()]);
  return { buckets: fields.size, drifted, missingMarkers };
}
