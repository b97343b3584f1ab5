import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { ApiError } from '../api/api-error';
import { SESSION_KEY } from '../session/session-key';

/** Errors a person can do nothing about by trying again at once. */
function isFinal(err: unknown): boolean {
  return err instanceof ApiError && err.status >= 400 && err.status < 500;
}

/**
 * Server state for the whole dashboard. A 401 from any call means the session
 * is gone (expired, signed out elsewhere): the session is read again, and the
 * session gate sends the operator to sign-in with a way back. Failed changes
 * that a form does not show field by field are told in a notification.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (err, query) => {
        if (err instanceof ApiError && err.status === 401 && query.queryKey[0] !== SESSION_KEY[0]) {
          void client.invalidateQueries({ queryKey: SESSION_KEY });
        }
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _variables, _context, mutation) => {
        if (err instanceof ApiError && err.status === 401 && mutation.meta?.signIn !== true) {
          void client.invalidateQueries({ queryKey: SESSION_KEY });
          return;
        }
        if (mutation.meta?.errorsShownInForm === true) return;
        notifyError(err);
      },
    }),
    defaultOptions: {
      queries: { staleTime: 15_000, retry: (count, err) => !isFinal(err) && count < 2, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
  return client;
}

/** The API's error as a global notification. */
export function notifyError(err: unknown): void {
  const title = err instanceof ApiError ? (err.status === 403 ? 'Not allowed' : err.status === 429 ? 'Too many requests' : err.code) : 'Error';
  const message = err instanceof ApiError ? err.userMessage : err instanceof Error ? err.message : String(err);
  notifications.show({ color: 'red', title, message, autoClose: 8000 });
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The form that sent the change shows its error (field by field or above the form). */
      errorsShownInForm?: boolean;
      /** A 401 here is a wrong password, not an ended session. */
      signIn?: boolean;
    };
  }
}
