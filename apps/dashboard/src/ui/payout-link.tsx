import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAppId } from '../api/use-api';

/** A payout, opened in its drawer on the Payouts page (`?payout=`); its id unless `children` say otherwise. */
export function PayoutLink({ payoutId, children, label, onClick }: { payoutId: string; children?: ReactNode; label?: string; onClick?: () => void }) {
  const appId = useAppId();
  return (
    <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/payouts?payout=${encodeURIComponent(payoutId)}`} size="sm" aria-label={label} onClick={onClick} style={{ wordBreak: 'break-all' }}>
      {children ?? payoutId}
    </Anchor>
  );
}
