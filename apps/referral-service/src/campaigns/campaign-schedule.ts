import type { CampaignEffectiveStatus, EnumName } from '@ris/contracts';
import type { CampaignDoc } from './campaign.model';

/** ACTIVE, PAUSED, ENDED or SCHEDULED: the names of the contract's CampaignEffectiveStatus. */
export type CampaignEffectiveStatusName = EnumName<typeof CampaignEffectiveStatus>;

/** What the rule reads of a campaign: the status the operator set and the schedule. */
export type ScheduledCampaign = Pick<CampaignDoc, 'status' | 'startsAt' | 'endsAt'>;

/**
 * What a campaign does at `at` (product decisions §3.6): the stored status
 * as the operator set it, within the schedule [startsAt, endsAt). Past its
 * end a campaign is ENDED whatever its status; before its start an ACTIVE
 * one is SCHEDULED, while a PAUSED one stays PAUSED (the operator's choice
 * says more than the calendar). Only ACTIVE takes new referrals and
 * conversions: this is that rule's one place.
 */
export function effectiveStatus(campaign: ScheduledCampaign, at: Date): CampaignEffectiveStatusName {
  if (campaign.status === 'ENDED') return 'ENDED';
  if (campaign.endsAt && at.getTime() >= campaign.endsAt.getTime()) return 'ENDED';
  if (campaign.status === 'PAUSED') return 'PAUSED';
  if (campaign.startsAt && at.getTime() < campaign.startsAt.getTime()) return 'SCHEDULED';
  return 'ACTIVE';
}

/** 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the years a timestamp (and the API's ISO 8601 answers) can say. */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('+010000-01-01T00:00:00Z');

/**
 * What is wrong with a schedule, naming the field: a bound outside the
 * years 0001 to 9999 (UTC), or an end, when both are set, not after the
 * start. Null when nothing is.
 */
export function scheduleProblem(schedule: Pick<ScheduledCampaign, 'startsAt' | 'endsAt'>): { field: 'startsAt' | 'endsAt'; message: string } | null {
  for (const field of ['startsAt', 'endsAt'] as const) {
    const at = schedule[field]?.getTime();
    if (at !== undefined && !(at >= EARLIEST && at < LATEST)) return { field, message: `${field} must fall within the years 0001 to 9999 (UTC)` };
  }
  if (schedule.startsAt && schedule.endsAt && schedule.endsAt.getTime() <= schedule.startsAt.getTime()) {
    return { field: 'endsAt', message: 'endsAt must be after startsAt' };
  }
  return null;
}
