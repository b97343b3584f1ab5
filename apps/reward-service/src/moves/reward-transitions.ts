import type { RewardStatusName } from '../rewards/reward.model';

/**
 * docs/product-decisions.md §6.2: PENDING → APPROVED → PAID; PENDING or APPROVED →
 * CANCELLED. Nothing leaves PAID or CANCELLED.
 */
const ALLOWED: Record<RewardStatusName, readonly RewardStatusName[]> = {
  PENDING: ['APPROVED', 'CANCELLED'],
  APPROVED: ['PAID', 'CANCELLED'],
  PAID: [],
  CANCELLED: [],
};

export function canTransition(from: RewardStatusName, to: RewardStatusName): boolean {
  return ALLOWED[from].includes(to);
}

/** Whether a reward in `from` can get to `to` by zero or more moves. */
export function canReach(from: RewardStatusName, to: RewardStatusName): boolean {
  return from === to || ALLOWED[from].some((next) => canReach(next, to));
}

/** The states a reward can leave (PENDING, APPROVED). */
export function statesLeft(): RewardStatusName[] {
  return (Object.keys(ALLOWED) as RewardStatusName[]).filter((from) => ALLOWED[from].length > 0);
}

/** The states a reward may be in to move to `to` (the filter of the conditional update). */
export function statesBefore(to: RewardStatusName): RewardStatusName[] {
  return (Object.keys(ALLOWED) as RewardStatusName[]).filter((from) => canTransition(from, to));
}
