import { createContext, useContext, type ReactNode } from 'react';
import { useParams } from 'react-router';
import type { ConsoleSession, Role } from '../api/types';
import { allows, roleIn } from './roles';

const SessionContext = createContext<ConsoleSession | null>(null);

export function SessionProvider({ session, children }: { session: ConsoleSession; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in operator's session (inside the session gate). */
export function useSession(): ConsoleSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the session gate');
  return session;
}

/** The operator's role in the app of the URL. */
export function useRole(): Role | null {
  const session = useSession();
  const { appId } = useParams();
  return appId ? roleIn(session, appId) : null;
}

/** Whether the operator may do what needs `least` in the app of the URL. */
export function useAllows(least: Role): boolean {
  return allows(useRole(), least);
}

/**
 * Renders its children only for a role of at least `least`: a VIEWER sees
 * no change controls (the server refuses them with 403 all the same).
 */
export function RoleGate({ least, children }: { least: Role; children: ReactNode }) {
  return useAllows(least) ? <>{children}</> : null;
}
