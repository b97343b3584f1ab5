import { Badge } from '@mantine/core';
import type { Campaign, CampaignStatus } from '../../api/types';
import { formatDateTime } from '../../ui/format';

/** What a campaign does now (its status within its schedule, as the API derives it): what the list and the page show. */
type EffectiveStatus = Campaign['effectiveStatus'];

const COLORS: Record<EffectiveStatus, string> = { ACTIVE: 'green', PAUSED: 'yellow', ENDED: 'gray', SCHEDULED: 'blue' };

export function CampaignStatusBadge({ status }: { status: EffectiveStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {status.toLowerCase()}
    </Badge>
  );
}

/** The schedule in words, in the operator's time: `from …`, `until …` or both (empty without one). */
export function scheduleText(campaign: Pick<Campaign, 'startsAt' | 'endsAt'>): string {
  const { startsAt, endsAt } = campaign;
  return [startsAt !== null ? `from ${formatDateTime(startsAt)}` : null, endsAt !== null ? `until ${formatDateTime(endsAt)}` : null].filter(Boolean).join(' ');
}

/** What an operator can do to a campaign of each status as set (an ended campaign stays ended). */
export function statusActions(status: CampaignStatus): Array<{ to: CampaignStatus; label: string; color: string; message: string }> {
  const end = {
    to: 'ENDED' as const,
    label: 'End',
    color: 'red',
    message: 'Ending a campaign stops new referrals and conversions for good. Rewards already earned stay.',
  };
  if (status === 'ACTIVE') {
    return [{ to: 'PAUSED', label: 'Pause', color: 'yellow', message: 'While paused, the campaign takes no new referrals or conversions.' }, end];
  }
  if (status === 'PAUSED') return [{ to: 'ACTIVE', label: 'Resume', color: 'green', message: 'The campaign takes referrals and conversions again.' }, end];
  return [];
}
