/** Query key of the operator's session (GET /console/v1/session). */
export const SESSION_KEY = ['session'] as const;
