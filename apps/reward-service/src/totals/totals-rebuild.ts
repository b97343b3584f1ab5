import type { Logger } from '@ris/logging';
import { compareCounters, reconcileDrift, type CounterDrift } from '@ris/mongo';
import type { RewardStore } from '../rewards/reward-store';
import type { RewardTotalsDoc } from './reward-totals.model';
import { totalsId, totalsIncrements } from './reward-totals';

export interface TotalsReport {
  rewards: number;
  documents: number;
  drifted: Array<CounterDrift & { fixed: boolean }>;
  /** Totals documents not judged: a reward of theirs has a move still open, which its own finishing will count. */
  unsettled: number;
}

/** What the rebuild reads: the rewards, their open moves, and the totals it checks. */
export type TotalsStore = Pick<RewardStore, 'rewards' | 'moves' | 'totals'>;

/** Every numeric leaf of a totals document, by dotted path (total.pending, levels.L1.count, …). */
function storedFields(doc: RewardTotalsDoc): Map<string, number> {
  const fields = new Map<string, number>();
  const walk = (prefix: string, value: unknown) => {
    if (typeof value === 'number') fields.set(prefix, value);
    else if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(prefix ? `${prefix}.${key}` : key, inner);
  };
  walk('', { total: doc.total, levels: doc.levels, referee: doc.referee });
  return fields;
}

/** The rewards' totals, recomputed with the increments the service applies, against what is stored. */
async function pass(store: TotalsStore, appId: string | undefined, counts: Omit<TotalsReport, 'drifted'>): Promise<CounterDrift[]> {
  // A move still open may or may not have counted yet, and will count itself when finished:
  // the documents its reward touches are left out, never "fixed" into a double count.
  const moving = await store.moves.rewardsMoving(appId);
  const unsettled = new Set<string>();
  const expected = new Map<string, { appId: string; fields: Map<string, number> }>();
  counts.rewards = 0;
  for await (const reward of store.rewards.every(appId)) {
    counts.rewards += 1;
    for (const { userId, inc } of totalsIncrements(reward, null, reward.status)) {
      const id = totalsId(reward.campaignId, userId);
      if (moving.has(reward._id)) unsettled.add(id);
      const entry = expected.get(id) ?? { appId: reward.appId, fields: new Map<string, number>() };
      for (const [field, amount] of Object.entries(inc)) entry.fields.set(field, (entry.fields.get(field) ?? 0) + amount);
      expected.set(id, entry);
    }
  }
  const drift: CounterDrift[] = [];
  const seen = new Set<string>();
  counts.documents = 0;
  for await (const doc of store.totals.every(appId)) {
    counts.documents += 1;
    seen.add(doc._id);
    if (!unsettled.has(doc._id)) drift.push(...compareCounters(doc.appId, doc._id, storedFields(doc), expected.get(doc._id)?.fields ?? new Map()));
  }
  for (const [id, entry] of expected) if (!seen.has(id) && !unsettled.has(id)) drift.push(...compareCounters(entry.appId, id, new Map(), entry.fields));
  counts.unsettled = unsettled.size;
  return drift;
}

/**
 * Recomputes the reward totals from the rewards and reports where they
 * differ. Totals can only fall short (a process that died between a move's
 * totals marker and its increments), but any drift is reported; with
 * `fix`, each drift two passes see alike is closed (closeDrift).
 */
export async function rebuildTotals(
  store: TotalsStore,
  logger: Logger,
  options: { appId?: string; fix: boolean; settleMs?: number },
): Promise<TotalsReport> {
  const counts = { rewards: 0, documents: 0, unsettled: 0 };
  const drifted = await reconcileDrift(() => pass(store, options.appId, counts), options, async (d) => {
    await store.totals.closeDrift(d);
    logger.info({ ...d }, 'reward totals corrected');
  });
  return { ...counts, drifted };
}
