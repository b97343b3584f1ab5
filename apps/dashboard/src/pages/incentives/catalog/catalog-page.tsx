import { PageHeader } from '../../../ui/page-header';
import { UrlTabs } from '../../../ui/url-tabs';
import { ItemsPanel } from './items-panel';
import { RedemptionsPanel } from './redemptions-panel';

/** The app's catalog (items, stock, publication) and its redemptions (fulfil or cancel). */
export function CatalogPage() {
  return (
    <>
      <PageHeader title="Catalog" description="What users redeem their coins and tokens for, and the redemptions to fulfil." />
      <UrlTabs
        label="Catalog"
        tabs={[
          { value: 'items', label: 'Items', panel: <ItemsPanel /> },
          { value: 'redemptions', label: 'Redemptions', panel: <RedemptionsPanel /> },
        ]}
      />
    </>
  );
}
