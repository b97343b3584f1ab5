import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { PageHeader } from '../../ui/page-header';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { useSearchState } from '../../url/search-state';
import { STRIPE_KEY, StripeConnection } from './stripe-connection';
import { STRIPE_EVENT_STATUSES, StripeEvents } from './stripe-events';

const KEYS = ['status'] as const;

/**
 * Services that send the app's records in: Stripe (connect its webhooks,
 * the endpoint URL to give it, the events it sent and what each became).
 * Every role reads; an OWNER connects and disconnects (audited).
 */
export function IntegrationsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const status = STRIPE_EVENT_STATUSES.find((s) => s.value === values.status)?.value;
  const stripe = useQuery({
    queryKey: ['app', appId, ...STRIPE_KEY],
    queryFn: () => ok(api.GET('/api/v1/integrations/stripe')),
  });
  return (
    <>
      <PageHeader title="Integrations" description="Services that record your program's conversions, purchases and refunds for you." />
      <Stack gap="xl">
        <QueryView query={stripe} skeleton={<TableSkeleton rows={4} label="Loading the Stripe connection" />}>
          {(state) => <StripeConnection state={state} />}
        </QueryView>
        <StripeEvents status={status} onStatus={(v) => set({ status: v })} page={page} />
      </Stack>
    </>
  );
}
