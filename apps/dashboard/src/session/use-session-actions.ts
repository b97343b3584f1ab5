import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ok } from '../api/api-error';
import { useApi } from '../api/use-api';
import type { ConsoleSession } from '../api/types';
import { SESSION_KEY } from './session-key';

/** Switches the app the operator works in, kept as their last app (PUT /console/v1/session/app). */
export function useSwitchApp() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (appId: string) => ok(api.PUT('/console/v1/session/app', { body: { appId } })),
    onSuccess: (session: ConsoleSession) => queryClient.setQueryData(SESSION_KEY, session),
  });
}

/** Ends the session on the server, forgets everything read with it, and goes to sign-in. */
export function useSignOut() {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => ok(api.DELETE('/console/v1/session')),
    onSuccess: () => {
      queryClient.clear();
      void navigate('/sign-in', { replace: true });
    },
  });
}
