import { useAppId } from '../../../api/use-api';
import { useSession } from '../../../session/session-context';

/**
 * How a partner app is named on the marketplace pages: `this app`, the name
 * of another app the operator is a member of, or else its id (the API names
 * other apps by id only).
 */
export function useAppNames(): (appId: string) => string {
  const session = useSession();
  const current = useAppId();
  return (appId) => (appId === current ? 'this app' : (session.apps.find((a) => a.id === appId)?.name ?? appId));
}
