import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { Empty } from '../ui/query-state';

export function NotFoundPage() {
  return (
    <Empty title="Page not found" description="This address is not a page of the dashboard.">
      <Anchor component={Link} to="/">
        Go to the overview
      </Anchor>
    </Empty>
  );
}
