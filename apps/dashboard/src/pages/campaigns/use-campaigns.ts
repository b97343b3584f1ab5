import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import type { Answer } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';

type CampaignList = Answer<'/api/v1/campaigns', 'get'>;

/** The app's campaigns, newest first (the first 100): one read shared by the pickers and the currencies. */
function useCampaignList<T>(select: (data: CampaignList) => T) {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'campaigns', 'options'],
    queryFn: () => ok(api.GET('/api/v1/campaigns', { params: { query: { limit: 100 } } })),
    select,
  });
}

const options = (data: CampaignList) =>
  data.campaigns.map((c) => ({ value: c.id, label: `${c.name}${c.effectiveStatus === 'ACTIVE' ? '' : ` (${c.effectiveStatus.toLowerCase()})`}` }));

/** The app's campaigns for pickers (newest first; the first 100). */
export function useCampaignOptions() {
  return useCampaignList(options);
}

/** The currency of each campaign, and the one of the whole app when it has only one. */
export interface CampaignCurrencies {
  /** A campaign's currency; without a campaign, the app's one currency. null: not known (yet), or several. */
  of: (campaignId: string | null | undefined) => string | null;
}

/** What campaigns read so far say of currencies (exported for tests). */
export function currenciesOf(data: CampaignList | undefined): CampaignCurrencies {
  const byId = new Map((data?.campaigns ?? []).map((c) => [c.id, c.currency]));
  const distinct = new Set(byId.values());
  // The app's figures sum every campaign: one currency only when every campaign was read and all share it.
  const complete = data !== undefined && data.pagination.totalItems <= data.campaigns.length;
  const single = complete && distinct.size === 1 ? [...distinct][0]! : null;
  return { of: (campaignId) => (campaignId ? (byId.get(campaignId) ?? null) : single) };
}

/**
 * The currencies of the app's campaigns, for figures that carry none (GET /stats, top referrers, participants, a
 * referral's earnings): a campaign's figures are in its currency; the app's in its campaigns' one currency, and plain
 * numbers when they use several.
 */
export function useCampaignCurrencies(): CampaignCurrencies {
  return currenciesOf(useCampaignList((data) => data).data);
}
