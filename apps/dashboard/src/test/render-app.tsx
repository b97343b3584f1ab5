import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { routes } from '../app/routes';
import type { ConsoleSession } from '../api/types';
import { FakeApi } from './fake-api';
import { sessionStatus } from './fixtures';

/**
 * The whole dashboard at `path` (as under /dashboard), its network answered
 * by a FakeApi that already knows the operator's session when one is given.
 */
export function renderApp(path: string, { session, api = new FakeApi() }: { session?: ConsoleSession; api?: FakeApi } = {}) {
  if (session) api.on('GET', '/console/v1/session/status', sessionStatus(session));
  api.install();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const view = render(
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, api, router, queryClient, location: () => `${router.state.location.pathname}${router.state.location.search}` };
}
