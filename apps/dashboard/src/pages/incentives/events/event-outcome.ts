import type { IncentiveEvent } from '../../../api/types';
import { formatAmounts } from '../../../ui/format';

const WHY_NOTHING: Record<NonNullable<IncentiveEvent['reason']>, string> = {
  COOLDOWN: 'nothing: inside the cooldown',
  MAX_REPEATS: 'nothing: past the max repeats',
  ACTION_DISABLED: 'nothing: the action is disabled',
};

/** What an event granted, or why it granted nothing. */
export function eventOutcome(event: Pick<IncentiveEvent, 'rewarded' | 'reason'>): { rewarded: boolean; text: string } {
  if (event.rewarded) return { rewarded: true, text: formatAmounts(event.rewarded) };
  return { rewarded: false, text: event.reason ? WHY_NOTHING[event.reason] : 'nothing' };
}
