/** What an operator may do in one app; each role includes the ones before it. */
export const ROLES = ['VIEWER', 'MANAGER', 'OWNER'] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { VIEWER: 0, MANAGER: 1, OWNER: 2 };

/** Whether `role` allows what needs `needed`. */
export const roleAllows = (role: Role, needed: Role): boolean => RANK[role] >= RANK[needed];

/** A signed-in operator, before any app is chosen (console routes that are not about one app). */
export interface OperatorIdentity {
  operatorId: string;
  email: string;
  /** Instance administrator: every app as OWNER, creates apps. */
  isAdmin: boolean;
}

/**
 * Who makes a request to one app: an app's backend with its API key (full
 * access to its app), or an operator through a session with the role they
 * hold in the app (OWNER for an instance administrator).
 */
export type Principal =
  | { kind: 'apiKey'; appId: string }
  | ({ kind: 'operator'; appId: string; role: Role } & OperatorIdentity);

/** The least role a route needs when it does not say: reads VIEWER, changes MANAGER. */
export const defaultRole = (method: string): Role => (method === 'get' ? 'VIEWER' : 'MANAGER');
