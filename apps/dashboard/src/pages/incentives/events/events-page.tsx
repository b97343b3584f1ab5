import { Anchor, Badge, Button, Code, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { PageHeader } from '../../../ui/page-header';
import { Empty, QueryView } from '../../../ui/query-state';
import { UrlPagination } from '../../../ui/url-pagination';
import { UserLink } from '../../../ui/user-link';
import { useSearchState } from '../../../url/search-state';
import { useActionOptions } from '../actions/use-action-options';
import { instantOf, localOf } from '../../../ui/local-time';
import { eventOutcome } from './event-outcome';

const KEYS = ['userId', 'actionKey', 'from', 'to'] as const;

/** The app's recorded events, newest first: who did what, and what it earned (or why not). */
export function EventsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const actions = useActionOptions();
  const [user, setUser] = useState(values.userId ?? '');
  const [from, setFrom] = useState(localOf(values.from));
  const [to, setTo] = useState(localOf(values.to));
  const base = `/apps/${encodeURIComponent(appId)}`;
  const events = useQuery({
    queryKey: ['app', appId, 'events', values, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/incentives/events', {
          params: {
            query: {
              page,
              limit: 25,
              ...(values.userId ? { userId: values.userId } : {}),
              ...(values.actionKey ? { actionKey: values.actionKey } : {}),
              ...(values.from ? { from: values.from } : {}),
              ...(values.to ? { to: values.to } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set({ userId: user.trim() || null, from: instantOf(from), to: instantOf(to) });
  };
  const filtered = Object.values(values).some((v) => v !== null);
  return (
    <>
      <PageHeader title="Events" description="What users did, newest first, with what each event earned or why it earned nothing." />
      <Group mb="md" align="flex-end" wrap="wrap">
        <form onSubmit={submit} role="search" aria-label="Filter events">
          <Group align="flex-end" wrap="wrap">
            <TextInput label="User id" value={user} onChange={(e) => setUser(e.currentTarget.value)} w={{ base: '100%', xs: 180 }} />
            <TextInput label="From" type="datetime-local" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={{ base: '100%', xs: 210 }} />
            <TextInput label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={{ base: '100%', xs: 210 }} />
            <Button type="submit" variant="light">
              Filter
            </Button>
          </Group>
        </form>
        <Select
          label="Action"
          placeholder="Any action"
          clearable
          searchable
          data={actions.data ?? []}
          value={values.actionKey}
          onChange={(v) => set({ actionKey: v })}
          w={{ base: '100%', xs: 240 }}
        />
      </Group>
      <QueryView
        query={events}
        isEmpty={(d) => d.events.length === 0}
        empty={<Empty title={filtered ? 'No event matches' : 'No events yet'} description="Your backend records events with POST /incentives/events; referral activity records its own." />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Events"
              rows={d.events}
              rowKey={(e) => e.id}
              minWidth={860}
              columns={[
                { label: 'When', cell: (e) => formatDateTime(e.createdAt) },
                {
                  label: 'User',
                  cell: (e) => <UserLink userId={e.userId} />,
                },
                {
                  label: 'Action',
                  cell: (e) => (
                    <Anchor component={Link} to={`${base}/actions?action=${encodeURIComponent(e.actionKey)}`}>
                      {e.actionKey}
                    </Anchor>
                  ),
                },
                {
                  label: 'Granted',
                  cell: (e) => {
                    const outcome = eventOutcome(e);
                    return (
                      <Text size="sm" c={outcome.rewarded ? undefined : 'dimmed'}>
                        {outcome.text}
                      </Text>
                    );
                  },
                },
                { label: 'Duplicates', cell: (e) => (e.duplicates > 0 ? <Badge color="orange" variant="light">{`${e.duplicates} repeat${e.duplicates === 1 ? '' : 's'}`}</Badge> : '—') },
                {
                  label: 'Source',
                  cell: (e) => (
                    <Badge variant="light" color={e.source === 'REFERRAL' ? 'grape' : 'blue'}>
                      {e.source.toLowerCase()}
                    </Badge>
                  ),
                },
                {
                  label: 'Idempotency key',
                  cell: (e) =>
                    e.idempotencyKey ? (
                      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {e.idempotencyKey}
                      </Text>
                    ) : (
                      '—'
                    ),
                },
                {
                  label: 'Metadata',
                  cell: (e) =>
                    e.metadata ? (
                      <Code style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>{JSON.stringify(e.metadata)}</Code>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="events" />
          </Stack>
        )}
      </QueryView>
    </>
  );
}
