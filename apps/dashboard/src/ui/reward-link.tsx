import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useAppId } from '../api/use-api';

/** A reward's id as a link to its drawer on the Rewards page (`?reward=`). */
export function RewardLink({ rewardId }: { rewardId: string }) {
  const appId = useAppId();
  return (
    <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/rewards?reward=${encodeURIComponent(rewardId)}`} size="sm" style={{ wordBreak: 'break-all' }}>
      {rewardId}
    </Anchor>
  );
}
