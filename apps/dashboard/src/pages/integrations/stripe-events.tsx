import { Badge, Group, Select, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import type { StripeEvent, StripeEventStatus } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatDateTime } from '../../ui/format';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { UrlPagination } from '../../ui/url-pagination';
import { STRIPE_KEY } from './stripe-connection';

/** Each status of a received event, and what it means for the operator (the API's StripeEvent.status). */
export const STRIPE_EVENT_STATUSES: Array<{ value: StripeEventStatus; label: string }> = [
  { value: 'MATCHED', label: 'Matched: made or found a record' },
  { value: 'UNMATCHED', label: 'Unmatched: names nothing of the app' },
  { value: 'WAITING', label: 'Waiting for what it needs' },
  { value: 'REFUSED', label: 'Refused by a rule of the program' },
  { value: 'IGNORED', label: 'Ignored: nothing to do' },
  { value: 'RECEIVED', label: 'Received: being applied' },
];

/** The list follows events as Stripe sends them, without a reload. */
export const STRIPE_EVENTS_REFRESH_MS = 5_000;

/** What an event became: the conversion, purchase or reversal it made or belongs to. */
function Outcome({ event: e }: { event: StripeEvent }) {
  const made = [e.conversionId && `conversion ${e.conversionId}`, e.purchaseId && `purchase ${e.purchaseId}`, e.reversalId && `reversal ${e.reversalId}`].filter(Boolean);
  if (made.length === 0) return <>—</>;
  return (
    <Stack gap={0}>
      {made.map((m) => (
        <Text key={m as string} size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
          {m}
        </Text>
      ))}
    </Stack>
  );
}

/**
 * The Stripe events received, newest first (GET /integrations/stripe/events),
 * by status in the URL (`?status=UNMATCHED`: those naming nothing of the
 * app, such as an unknown referral code): what each became and why.
 */
export function StripeEvents({ status, onStatus, page }: { status: StripeEventStatus | undefined; onStatus: (status: string | null) => void; page: number }) {
  const api = useApi();
  const appId = useAppId();
  const events = useQuery({
    queryKey: ['app', appId, ...STRIPE_KEY, 'events', status, page],
    queryFn: () => ok(api.GET('/api/v1/integrations/stripe/events', { params: { query: { page, limit: 25, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: STRIPE_EVENTS_REFRESH_MS,
  });
  return (
    <section aria-labelledby="stripe-events">
      <Group justify="space-between" align="flex-end" mb="xs" wrap="wrap">
        <Title order={2} size="h4" id="stripe-events">
          Events received
        </Title>
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={STRIPE_EVENT_STATUSES}
          value={status ?? null}
          onChange={onStatus}
          w={{ base: '100%', xs: 300 }}
        />
      </Group>
      <QueryView
        query={events}
        skeleton={<TableSkeleton rows={4} label="Loading the events received" />}
        isEmpty={(d) => d.events.length === 0}
        empty={<Empty title="No events" description={status ? 'No event received has this status.' : 'The events Stripe sends to the endpoint show here, with what each became.'} />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Stripe events received"
              minWidth={820}
              rows={d.events}
              rowKey={(e) => e.id}
              rowProps={(e) => ({ 'data-testid': 'stripe-event', 'data-status': e.status })}
              columns={[
                { label: 'Received', cell: (e) => formatDateTime(e.receivedAt) },
                {
                  label: 'Event',
                  cell: (e) => (
                    <Stack gap={2} align="flex-start">
                      <Text size="sm" ff="monospace">
                        {e.type}
                      </Text>
                      <Text size="xs" ff="monospace" c="dimmed" style={{ wordBreak: 'break-all' }}>
                        {e.id}
                      </Text>
                      {!e.livemode && (
                        <Badge size="xs" variant="outline" color="gray">
                          test mode
                        </Badge>
                      )}
                    </Stack>
                  ),
                },
                { label: 'Status', cell: (e) => <StatusBadge status={e.status} /> },
                {
                  label: 'Why',
                  cell: (e) => (
                    <Stack gap={2}>
                      <Text size="sm">{e.reason}</Text>
                      <Text size="xs" c="dimmed" ff="monospace">
                        {e.reasonCode}
                      </Text>
                    </Stack>
                  ),
                },
                { label: 'Became', cell: (e) => <Outcome event={e} /> },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="events" />
          </Stack>
        )}
      </QueryView>
    </section>
  );
}
