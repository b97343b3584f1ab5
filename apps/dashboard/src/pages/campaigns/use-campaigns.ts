import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';

/** The app's campaigns for pickers (newest first; the first 100). */
export function useCampaignOptions() {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'campaigns', 'options'],
    queryFn: () => ok(api.GET('/api/v1/campaigns', { params: { query: { limit: 100 } } })),
    select: (data) => data.campaigns.map((c) => ({ value: c.id, label: `${c.name}${c.effectiveStatus === 'ACTIVE' ? '' : ` (${c.effectiveStatus.toLowerCase()})`}` })),
  });
}
