import type { Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { rewardMoveModel, type RewardMoveDoc } from './reward-move.model';
import { rewardTotalsModel, type RewardTotalsDoc } from './reward-totals.model';
import { totalsId, totalsIncrements } from './reward-totals';
import { rewardModel, type RewardDoc } from './reward.model';

export interface TotalsDrift {
  appId: string;
  /** The totals document: `${campaignId}:${userId}` (userId '' for the campaign). */
  totalsId: string;
  /** e.g. total.approved, levels.L2.count, referee.paid */
  field: string;
  stored: number;
  expected: number;
  fixed: boolean;
}

export interface TotalsReport {
  rewards: number;
  documents: number;
  drifted: TotalsDrift[];
  /** Totals documents not judged: a reward of theirs has a move still open, which its own finishing will count. */
  unsettled: number;
}

interface Expected {
  appId: string;
  campaignId: string;
  userId: string;
  fields: Map<string, number>;
}

type Snapshot = { rewards: number; documents: number; drift: Map<string, Omit<TotalsDrift, 'fixed'>>; unsettled: number };

// Amounts are summed in another order than the increments were applied: compare relatively.
const closeEnough = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

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
async function snapshot(db: Connection, appId: string | undefined): Promise<Snapshot> {
  const scope = appId ? { appId } : {};
  // A move still open may or may not have counted yet, and will count itself when finished:
  // the documents its reward touches are left out, never "fixed" into a double count.
  const openMoves = await rewardMoveModel(db).find({ ...scope, done: false }).lean<RewardMoveDoc[]>().exec();
  const moving = new Set(openMoves.map((m) => m.rewardId));
  const unsettledIds = new Set<string>();
  const expected = new Map<string, Expected>();
  let rewards = 0;
  for await (const reward of rewardModel(db).find(scope).lean<RewardDoc>().cursor()) {
    rewards += 1;
    if (moving.has(reward._id)) for (const { userId } of totalsIncrements(reward, null, reward.status)) unsettledIds.add(totalsId(reward.campaignId, userId));
    for (const { userId, inc } of totalsIncrements(reward, null, reward.status)) {
      const id = totalsId(reward.campaignId, userId);
      const entry = expected.get(id) ?? { appId: reward.appId, campaignId: reward.campaignId, userId, fields: new Map<string, number>() };
      for (const [field, amount] of Object.entries(inc)) entry.fields.set(field, (entry.fields.get(field) ?? 0) + amount);
      expected.set(id, entry);
    }
  }
  const drift = new Map<string, Omit<TotalsDrift, 'fixed'>>();
  const seen = new Set<string>();
  let documents = 0;
  const compare = (docAppId: string, id: string, stored: Map<string, number>, wanted: Map<string, number>) => {
    for (const field of new Set([...stored.keys(), ...wanted.keys()])) {
      const [s, e] = [stored.get(field) ?? 0, wanted.get(field) ?? 0];
      if (!closeEnough(s, e)) drift.set(`${id} ${field}`, { appId: docAppId, totalsId: id, field, stored: s, expected: e });
    }
  };
  for await (const doc of rewardTotalsModel(db).find(scope).lean<RewardTotalsDoc>().cursor()) {
    documents += 1;
    seen.add(doc._id);
    if (unsettledIds.has(doc._id)) continue;
    compare(doc.appId, doc._id, storedFields(doc), expected.get(doc._id)?.fields ?? new Map());
  }
  for (const [id, entry] of expected) if (!seen.has(id) && !unsettledIds.has(id)) compare(entry.appId, id, new Map(), entry.fields);
  return { rewards, documents, drift, unsettled: unsettledIds.size };
}

/**
 * Recomputes the reward totals from the rewards and reports where they
 * differ. Totals can only fall short (a process that died between a move's
 * totals marker and its increments), but any drift is reported. A drift
 * counts only if two passes `settleMs` apart see it alike: a move caught
 * between the two reads of one pass looks like drift for a moment. With
 * `fix`, each stable drift is closed by $inc of the difference, which
 * stays right while the service keeps incrementing on MongoDB (on FerretDB
 * an $inc is a read and a write: fix with the service stopped).
 */
export async function rebuildTotals(
  db: Connection,
  logger: Logger,
  options: { appId?: string; fix: boolean; settleMs?: number },
): Promise<TotalsReport> {
  const first = await snapshot(db, options.appId);
  if (first.drift.size > 0) await new Promise((resolve) => setTimeout(resolve, options.settleMs ?? 2000));
  const second = first.drift.size > 0 ? await snapshot(db, options.appId) : first;
  const stable = [...second.drift.entries()]
    .filter(([key, d]) => {
      const before = first.drift.get(key);
      return before !== undefined && before.stored === d.stored && before.expected === d.expected;
    })
    .map(([, d]) => d);
  const drifted: TotalsDrift[] = [];
  for (const d of stable) {
    let fixed = false;
    if (options.fix) {
      const [campaignId, ...userParts] = d.totalsId.split(':');
      await rewardTotalsModel(db)
        .updateOne(
          { _id: d.totalsId, appId: d.appId },
          { $inc: { [d.field]: d.expected - d.stored }, $setOnInsert: { campaignId, userId: userParts.join(':') } },
          { upsert: true },
        )
        .exec();
      fixed = true;
      logger.info({ ...d }, 'reward totals corrected');
    }
    drifted.push({ ...d, fixed });
  }
  return { rewards: second.rewards, documents: second.documents, drifted, unsettled: second.unsettled };
}
