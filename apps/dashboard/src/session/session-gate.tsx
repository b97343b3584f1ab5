import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage, ok } from '../api/api-error';
import { useApi } from '../api/use-api';
import { SESSION_KEY } from './session-key';
import { SessionProvider } from './session-context';

/** Where sign-in should send the operator back to (a path of this dashboard only). */
export function returnPath(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}

/**
 * Reads the session before any page: without one the operator goes to
 * sign-in, which brings them back here. It asks GET /console/v1/session/status,
 * which answers 200 with `session: null` when signed out: an expected state,
 * not a 401 the browser would log as a failed request on every signed-out load.
 */
export function SessionGate() {
  const api = useApi();
  const location = useLocation();
  const session = useQuery({
    queryKey: SESSION_KEY,
    queryFn: () => ok(api.GET('/console/v1/session/status')).then((d) => d.session),
    staleTime: Infinity,
  });

  if (session.data === null) {
    const to = `/sign-in?returnTo=${encodeURIComponent(returnPath(location))}`;
    return <Navigate to={to} replace />;
  }
  if (session.data && !session.isError) return <SessionProvider session={session.data}>{<Outlet />}</SessionProvider>;
  if (session.isError) {
    return (
      <Center h="100vh" p="md">
        <Stack maw={420}>
          <Alert color="red" title="The dashboard could not start">
            {errorMessage(session.error)}
          </Alert>
          <Button onClick={() => void session.refetch()}>Try again</Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Center h="100vh" aria-busy="true">
      <Loader aria-label="Loading your session" />
    </Center>
  );
}
