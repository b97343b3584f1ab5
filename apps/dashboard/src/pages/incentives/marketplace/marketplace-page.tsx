import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { PageHeader } from '../../../ui/page-header';
import { UrlTabs } from '../../../ui/url-tabs';
import { ListingsPanel } from './listings-panel';
import { MarketplaceRedemptionsPanel } from './marketplace-redemptions-panel';
import { SettlementsPanel } from './settlements-panel';

/** The app's own marketplace listings, the codes they issued to other apps' users, and the settlements between apps. */
export function MarketplacePage() {
  const api = useApi();
  const appId = useAppId();
  const listings = useQuery({
    queryKey: ['app', appId, 'marketplace', 'listings', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/marketplace/listings', { params: { query: { limit: 100 } } })),
    select: (d) => d.listings.map((l) => ({ value: l.id, label: l.title })),
  });
  const options = listings.data ?? [];
  return (
    <>
      <PageHeader title="Marketplace" description="Discounts your business offers to users of every app, the codes they took, and what each app owes the others." />
      <UrlTabs
        label="Marketplace"
        tabs={[
          { value: 'listings', label: 'Your listings', panel: <ListingsPanel /> },
          { value: 'redemptions', label: 'Codes issued', panel: <MarketplaceRedemptionsPanel listingOptions={options} /> },
          { value: 'settlements', label: 'Settlements', panel: <SettlementsPanel listingOptions={options} /> },
        ]}
      />
    </>
  );
}
