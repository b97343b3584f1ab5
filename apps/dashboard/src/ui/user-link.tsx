import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { useAppId } from '../api/use-api';

/** An end user's id as a link to their page (Users), `tab` opening one of its tabs. */
export function UserLink({ userId, tab }: { userId: string; tab?: string }) {
  const appId = useAppId();
  return (
    <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/users?userId=${encodeURIComponent(userId)}${tab ? `&tab=${tab}` : ''}`}>
      {userId}
    </Anchor>
  );
}
