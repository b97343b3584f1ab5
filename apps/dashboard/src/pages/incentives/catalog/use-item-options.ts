import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';

/** The app's catalog items for pickers (the first 100, published or not). */
export function useItemOptions() {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'catalog', 'items', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/catalog', { params: { query: { limit: 100 } } })),
    select: (d) => d.items.map((i) => ({ value: i.id, label: i.name })),
  });
}
