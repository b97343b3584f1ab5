/**
 * Paths one of whose segments is a credential: an invitation link's token,
 * in the dashboard's page and in the console's API. Whoever reads logs or
 * traces could otherwise accept the invitation before its guest does.
 */
const CREDENTIAL_SEGMENT = /^(\/console\/v1\/invitations|\/dashboard\/invite)\/[^/]+/i;

/**
 * A request's path as logs and traces keep it: without its query (the
 * widget's embed token rides there), and with a credential segment
 * replaced by `{token}`.
 */
export const recordedPath = (url: string): string => url.split('?')[0].replace(CREDENTIAL_SEGMENT, '$1/{token}');
