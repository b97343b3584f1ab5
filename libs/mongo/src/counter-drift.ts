import type { Model } from 'mongoose';

/** A counter field whose stored value differs from its recomputation. */
export interface CounterDrift {
  appId: string;
  /** The counters document's _id. */
  docId: string;
  /** e.g. totalClicks, total.approved, levels.L2.count */
  field: string;
  stored: number;
  expected: number;
}

// Recomputed sums add in another order than the increments did: compare relatively.
const closeEnough = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** The fields of one document where stored and expected counters differ (a missing field counts 0). */
export function compareCounters(appId: string, docId: string, stored: Map<string, number>, expected: Map<string, number>): CounterDrift[] {
  const drift: CounterDrift[] = [];
  for (const field of new Set([...stored.keys(), ...expected.keys()])) {
    const [s, e] = [stored.get(field) ?? 0, expected.get(field) ?? 0];
    if (!closeEnough(s, e)) drift.push({ appId, docId, field, stored: s, expected: e });
  }
  return drift;
}

/**
 * The drift two passes `settleMs` apart see alike. Counters are kept on
 * write, just after what they count: a write caught between one pass's
 * reads looks like drift for a moment, and must not be "fixed".
 */
export async function stableDrift(pass: () => Promise<CounterDrift[]>, settleMs: number): Promise<CounterDrift[]> {
  const first = await pass();
  if (first.length === 0) return [];
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const key = (d: CounterDrift) => `${d.docId} ${d.field} ${d.stored} ${d.expected}`;
  const seen = new Set(first.map(key));
  return (await pass()).filter((d) => seen.has(key(d)));
}

/**
 * Closes a drift with $inc of the difference, which stays right while the
 * service keeps incrementing on MongoDB (FerretDB runs an $inc as a read
 * and a write: fix there with the service stopped).
 */
export async function closeDrift<T>(model: Model<T>, drift: CounterDrift, setOnInsert: Record<string, unknown>): Promise<void> {
  await model
    .updateOne({ _id: drift.docId, appId: drift.appId } as never, { $inc: { [drift.field]: drift.expected - drift.stored }, $setOnInsert: setOnInsert } as never, {
      upsert: true,
    })
    .exec();
}

/**
 * The stable drift of `pass` (stableDrift), each closed with `close` when
 * `fix` is set (the caller's closeDrift with its document's insert fields).
 */
export async function reconcileDrift(
  pass: () => Promise<CounterDrift[]>,
  options: { fix: boolean; settleMs?: number },
  close: (drift: CounterDrift) => Promise<void>,
): Promise<Array<CounterDrift & { fixed: boolean }>> {
  const stable = await stableDrift(pass, options.settleMs ?? 2000);
  for (const drift of stable) if (options.fix) await close(drift);
  return stable.map((drift) => ({ ...drift, fixed: options.fix }));
}
