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

/** A `datetime-local` field's value (the operator's time) as the instant the API takes; '' → null. */
export function instantOf(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An instant of the URL as a `datetime-local` field shows it, in the operator's time. */
export function localOf(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
