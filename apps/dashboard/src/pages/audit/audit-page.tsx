import { Anchor, Badge, Button, Code, Drawer, Group, Stack, Table, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { AuditEntry } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { formatDateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { auditChanges, shown } from './audit-diff';
import { auditSentence } from './audit-sentence';

const KEYS = ['operatorId', 'action', 'entry'] as const;
const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue' } as const;

/** How a change ended, when not plainly: still running (or its gateway stopped), or failed without saying whether it took effect. */
function Outcome({ outcome }: { outcome: AuditEntry['outcome'] }) {
  if (outcome === 'SUCCEEDED') return null;
  return (
    <Tooltip
      label={outcome === 'PENDING' ? 'Still running, or the gateway stopped during it: it may or may not have taken effect.' : 'It failed without saying whether it took effect.'}
      multiline
      w={260}
    >
      <Badge size="xs" color={outcome === 'PENDING' ? 'gray' : 'orange'} tabIndex={0}>
        {outcome === 'PENDING' ? 'pending' : 'outcome unknown'}
      </Badge>
    </Tooltip>
  );
}

/** Before and after of one change, side by side, only what differs. */
function EntryDrawer({ entry, onClose }: { entry: AuditEntry | null; onClose: () => void }) {
  const changes = entry ? auditChanges(entry.before, entry.after) : [];
  return (
    <Drawer opened={entry !== null} onClose={onClose} position="right" size="xl" title="Change">
      {entry && (
        <Stack>
          <Text size="sm">
            <strong>{entry.operator.email}</strong> · {formatDateTime(entry.at)}
          </Text>
          <Text size="sm">
            {auditSentence(entry)} <Outcome outcome={entry.outcome} />
          </Text>
          <Code>{entry.action}</Code>
          {entry.target && (
            <Text size="sm" c="dimmed">
              {entry.target.type} {entry.target.id}
            </Text>
          )}
          <Title order={3} size="h5">
            What changed
          </Title>
          {changes.length === 0 ? (
            <Text size="sm" c="dimmed">
              No field differs between before and after.
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={480}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Before</Table.Th>
                    <Table.Th>After</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {changes.map((c) => (
                    <Table.Tr key={c.path}>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Badge size="xs" color={KIND_COLOR[c.kind]}>
                            {c.kind}
                          </Badge>
                          <Text size="sm" ff="monospace">
                            {c.path}
                          </Text>
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" c="red" style={{ wordBreak: 'break-all' }}>
                          {shown(c.before)}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" ff="monospace" c="green" style={{ wordBreak: 'break-all' }}>
                          {shown(c.after)}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Drawer>
  );
}

/** Every change operators made in this app, newest first. */
export function AuditPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const [action, setAction] = useState(values.action ?? '');
  const entries = useQuery({
    queryKey: ['app', appId, 'audit', values.operatorId, values.action, page],
    queryFn: () =>
      ok(
        api.GET('/console/v1/apps/{appId}/audit', {
          params: {
            path: { appId },
            query: { page, limit: 25, ...(values.operatorId ? { operatorId: values.operatorId } : {}), ...(values.action ? { action: values.action } : {}) },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const open = entries.data?.entries.find((e) => e.id === values.entry) ?? null;
  return (
    <>
      <PageHeader title="Audit log" description="Every change an operator made in this app: who, when, and what it was before and after." />
      <Group mb="md" align="flex-end" wrap="wrap">
        <form
          role="search"
          aria-label="Filter by action"
          onSubmit={(e) => {
            e.preventDefault();
            set({ action: action.trim() || null });
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="Action" placeholder="e.g. POST /api/v1/fraud/flags/{flagId}/resolve" value={action} onChange={(e) => setAction(e.currentTarget.value)} w={{ base: '100%', xs: 320 }} />
            <Button type="submit" variant="light">
              Filter
            </Button>
          </Group>
        </form>
        {values.operatorId && (
          <Button variant="default" onClick={() => set({ operatorId: null })} aria-label="Show every operator's changes">
            Operator {values.operatorId} ✕
          </Button>
        )}
      </Group>
      <QueryView query={entries} isEmpty={(d) => d.entries.length === 0} empty={<Empty title="No changes recorded" description="Changes made in the dashboard appear here." />}>
        {(d) => (
          <Stack>
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Operator</Table.Th>
                    <Table.Th>What</Table.Th>
                    <Table.Th>Target</Table.Th>
                    <Table.Th>Details</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.entries.map((e) => (
                    <Table.Tr key={e.id}>
                      <Table.Td>{formatDateTime(e.at)}</Table.Td>
                      <Table.Td>
                        <Anchor component="button" type="button" size="sm" onClick={() => set({ operatorId: e.operator.id })} aria-label={`Only changes by ${e.operator.email}`}>
                          {e.operator.email}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        {auditSentence(e)} <Outcome outcome={e.outcome} />
                        {/* The raw route stays, for the Action filter and the API reference. */}
                        <Text size="xs" c="dimmed" ff="monospace">
                          {e.action}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{e.target?.type ?? '—'}</Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {e.target?.id}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Button size="compact-sm" variant="light" onClick={() => set({ entry: e.id })} aria-label={`Before and after of ${auditSentence(e)}`}>
                          Diff
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={d.pagination} label="changes" />
          </Stack>
        )}
      </QueryView>
      <EntryDrawer entry={open} onClose={() => set({ entry: null })} />
    </>
  );
}
