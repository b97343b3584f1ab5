import type { BoostState, EnumName } from '@ris/contracts';
import type { BoostDoc } from './boost.model';

/** SCHEDULED, ACTIVE or ENDED: the names of the contract's BoostState. */
export type BoostStateName = EnumName<typeof BoostState>;

/** What the choice reads of a boost. */
export type BoostTerms = Pick<BoostDoc, '_id' | 'multiplier' | 'actionKeys' | 'userIds' | 'startsAt' | 'endsAt'>;

export interface BoostedEvent {
  actionKey: string;
  userId: string;
  /** When the event happened: a boost applies when startsAt ≤ at < endsAt. */
  at: Date;
}

/** A boost's state at `now`: SCHEDULED before startsAt, ACTIVE in [startsAt, endsAt), ENDED from endsAt on. */
export function boostState(boost: Pick<BoostDoc, 'startsAt' | 'endsAt'>, now: Date): BoostStateName {
  const at = now.getTime();
  if (at < boost.startsAt.getTime()) return 'SCHEDULED';
  return at < boost.endsAt.getTime() ? 'ACTIVE' : 'ENDED';
}

function applies(boost: BoostTerms, event: BoostedEvent): boolean {
  const at = event.at.getTime();
  return (
    boost.startsAt.getTime() <= at &&
    at < boost.endsAt.getTime() &&
    (boost.actionKeys.length === 0 || boost.actionKeys.includes(event.actionKey)) &&
    (boost.userIds.length === 0 || boost.userIds.includes(event.userId))
  );
}

/** Whether `a` wins over `b`: the larger multiplier; equal ones, the earlier start, then the smaller id (so every replica picks the same). */
function wins(a: BoostTerms, b: BoostTerms): boolean {
  if (a.multiplier !== b.multiplier) return a.multiplier > b.multiplier;
  if (a.startsAt.getTime() !== b.startsAt.getTime()) return a.startsAt.getTime() < b.startsAt.getTime();
  return a._id < b._id;
}

/** The boost an event earns under: of those that apply to it, the largest (boosts never add up); null when none applies. */
export function applicableBoost<B extends BoostTerms>(boosts: readonly B[], event: BoostedEvent): B | null {
  let best: B | null = null;
  for (const boost of boosts) {
    if (applies(boost, event) && (best === null || wins(boost, best))) best = boost;
  }
  return best;
}

/**
 * A multiplier in hundredths (1.15 → 115), or null when it has more than 2
 * decimal places. 1.15 * 100 is 114.99999999999999 in binary floating
 * point: rounded, within a tolerance far below a hundredth.
 */
export function multiplierHundredths(multiplier: number): number | null {
  const scaled = multiplier * 100;
  const hundredths = Math.round(scaled);
  return Number.isFinite(scaled) && Math.abs(scaled - hundredths) < 1e-6 ? hundredths : null;
}

/**
 * A whole amount (coins, XP) times a multiplier of at most 2 decimal places
 * (create checks it), rounded down, computed exactly: in hundredths, as
 * integers, so 100 × 1.15 is 115 (in floating point 114.99999999999999)
 * and 3 × 1.1 is 3. A tolerance (floor(a × m + ε)) would not do: at
 * amounts near 10^9 the float error passes any ε that keeps small amounts
 * exact. The result stops at 2^53 − 1, the largest amount the ledger holds.
 */
export function boosted(amount: number, multiplier: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`amount ${amount} is not a whole amount`);
  const hundredths = multiplierHundredths(multiplier);
  if (hundredths === null) throw new Error(`multiplier ${multiplier} has more than 2 decimal places`);
  const scaled = amount * hundredths;
  if (Number.isSafeInteger(scaled)) return Math.min((scaled - (scaled % 100)) / 100, Number.MAX_SAFE_INTEGER);
  // Past 2^53 the product is not exact as a double: BigInt, whose division rounds toward zero (down: both are positive).
  const exact = (BigInt(amount) * BigInt(hundredths)) / 100n;
  return exact > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(exact);
}
