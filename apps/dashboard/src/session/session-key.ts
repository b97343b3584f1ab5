/** Query key of the operator's session (GET /console/v1/session/status: the session, or null when signed out). */
export const SESSION_KEY = ['session'] as const;
