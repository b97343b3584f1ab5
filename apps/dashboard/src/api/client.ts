import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema';

export type Api = Client<paths>;

export interface ApiContext {
  /** The app the page works in: sent as X-App-Id on every /api/v1 call. */
  appId: () => string | null;
  /** The session's CSRF token: sent as X-CSRF-Token on every state-changing call. */
  csrfToken: () => string | null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Adds what a session call needs: the app it is scoped to and the CSRF token. */
export function sessionHeaders(context: ApiContext): Middleware {
  return {
    onRequest({ request }) {
      const appId = context.appId();
      if (appId && new URL(request.url).pathname.startsWith('/api/v1/')) request.headers.set('X-App-Id', appId);
      const token = context.csrfToken();
      if (token && !SAFE_METHODS.has(request.method)) request.headers.set('X-CSRF-Token', token);
      return request;
    },
  };
}

/** A client of the gateway on this page's origin, with the session cookie. */
export function createApiClient(context: ApiContext): Api {
  const client = createClient<paths>({
    baseUrl: window.location.origin,
    credentials: 'same-origin',
    // Looked up per call, so that whatever fetch is current (a test's stub) is used.
    fetch: (request: Request) => globalThis.fetch(request),
  });
  client.use(sessionHeaders(context));
  return client;
}
