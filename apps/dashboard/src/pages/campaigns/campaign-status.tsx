import { Badge } from '@mantine/core';
import type { CampaignStatus } from '../../api/types';

const COLORS: Record<CampaignStatus, string> = { ACTIVE: 'green', PAUSED: 'yellow', ENDED: 'gray' };

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return (
    <Badge color={COLORS[status]} variant="light">
      {status.toLowerCase()}
    </Badge>
  );
}

/** What an operator can do to a campaign of each status (an ended campaign stays ended). */
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
