import { useMemo } from 'react';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { SESSION_KEY } from '../session/session-key';
import type { ConsoleSession } from './types';
import { createApiClient, type Api } from './client';

/** The API client of the current page: scoped to the app in the URL, with the session's CSRF token. */
export function useApi(): Api {
  const { appId } = useParams();
  const queryClient = useQueryClient();
  return useMemo(
    () =>
      createApiClient({
        appId: () => appId ?? null,
        csrfToken: () => queryClient.getQueryData<ConsoleSession>(SESSION_KEY)?.csrfToken ?? null,
      }),
    [appId, queryClient],
  );
}

/** The app the URL names (every page under /apps/:appId). */
export function useAppId(): string {
  const { appId } = useParams();
  if (!appId) throw new Error('useAppId outside an app route');
  return appId;
}
