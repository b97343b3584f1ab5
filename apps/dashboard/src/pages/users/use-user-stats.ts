import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';

/**
 * The referral side of one user as the API counts it (GET /users/{userId}/stats):
 * the codes they own, the clicks on them and the referees who converted. One
 * read, shared by the summary and the Referrals tab, so the two never disagree.
 */
export function useUserStats(userId: string) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'user', userId, 'stats'],
    // A user without activity is all zeros (the API answers 200 for any user id).
    queryFn: () => ok(api.GET('/api/v1/users/{userId}/stats', { params: { path: { userId } } })),
  });
}
