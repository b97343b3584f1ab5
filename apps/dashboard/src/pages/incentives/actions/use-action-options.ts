import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';

/** The app's actions for pickers (by key; the first 100). */
export function useActionOptions() {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'actions', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/actions', { params: { query: { limit: 100 } } })),
    select: (data) => data.actions.map((a) => ({ value: a.key, label: `${a.name} (${a.key})` })),
  });
}
