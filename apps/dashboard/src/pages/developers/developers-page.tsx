import { Tabs } from '@mantine/core';
import { useAllows } from '../../session/session-context';
import { PageHeader } from '../../ui/page-header';
import { useSearchState } from '../../url/search-state';
import { ApiKeysPanel } from './api-keys-panel';
import { WebhooksPanel } from './webhooks-panel';

const KEYS = ['tab'] as const;

/** API keys (OWNER only: the console refuses the others) and webhook endpoints. */
export function DevelopersPage() {
  const { values, set } = useSearchState(KEYS);
  const owner = useAllows('OWNER');
  const tab = owner && values.tab !== 'webhooks' ? 'keys' : 'webhooks';
  return (
    <>
      <PageHeader title="Developers" description="What your backend needs: API keys to call the API, and webhook endpoints to hear from it." />
      <Tabs value={tab} onChange={(v) => set({ tab: v === 'keys' ? null : v, page: null })} keepMounted={false}>
        <Tabs.List mb="md">
          {owner && <Tabs.Tab value="keys">API keys</Tabs.Tab>}
          <Tabs.Tab value="webhooks">Webhooks</Tabs.Tab>
        </Tabs.List>
        {owner && (
          <Tabs.Panel value="keys">
            <ApiKeysPanel />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="webhooks">
          <WebhooksPanel />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
