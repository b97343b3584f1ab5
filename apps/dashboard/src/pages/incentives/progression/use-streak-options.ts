import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';

/** The app's streak definitions for pickers (by key; the first 100), read while `enabled` (a form open). */
export function useStreakOptions(enabled = true) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'progression', 'streaks', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/streaks/definitions', { params: { query: { limit: 100 } } })),
    enabled,
    select: (d) => d.streaks.map((s) => ({ value: s.key, label: `${s.name} (${s.key})` })),
  });
}
