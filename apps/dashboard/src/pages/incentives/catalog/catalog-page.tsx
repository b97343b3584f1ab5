import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { PageHeader } from '../../../ui/page-header';
import { UrlTabs } from '../../../ui/url-tabs';
import { ItemsPanel } from './items-panel';
import { RedemptionsPanel } from './redemptions-panel';

/** The app's catalog (items, stock, publication) and its redemptions (fulfil or cancel). */
export function CatalogPage() {
  const api = useApi();
  const appId = useAppId();
  // Items to filter redemptions by (the first 100, published or not).
  const items = useQuery({
    queryKey: ['app', appId, 'catalog', 'items', 'options'],
    queryFn: () => ok(api.GET('/api/v1/incentives/catalog', { params: { query: { limit: 100 } } })),
    select: (d) => d.items.map((i) => ({ value: i.id, label: i.name })),
  });
  return (
    <>
      <PageHeader title="Catalog" description="What users redeem their coins and tokens for, and the redemptions to fulfil." />
      <UrlTabs
        label="Catalog"
        tabs={[
          { value: 'items', label: 'Items', panel: <ItemsPanel /> },
          { value: 'redemptions', label: 'Redemptions', panel: <RedemptionsPanel itemOptions={items.data ?? []} /> },
        ]}
      />
    </>
  );
}
