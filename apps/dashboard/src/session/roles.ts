import type { ConsoleSession, Role } from '../api/types';

const RANK: Record<Role, number> = { VIEWER: 0, MANAGER: 1, OWNER: 2 };

/** Whether a role may do what needs `least` (OWNER ⊃ MANAGER ⊃ VIEWER). */
export function allows(role: Role | null, least: Role): boolean {
  return role !== null && RANK[role] >= RANK[least];
}

/** The operator's role in an app (an instance administrator is OWNER everywhere); null when not a member. */
export function roleIn(session: ConsoleSession, appId: string): Role | null {
  const app = session.apps.find((a) => a.id === appId);
  if (app) return app.role;
  return session.operator.isAdmin ? 'OWNER' : null;
}
