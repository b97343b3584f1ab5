import { Badge, Button, Drawer, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { FlagWithEvidence } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { formatDateTime } from '../../ui/format';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { reasonInWords, riskColor } from './reasons';
import { ResolveDialog } from './resolve-dialog';
import { useResolveFlags, type Decision } from './use-resolve-flags';

function Signal({ label, value }: { label: string; value: string | null }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" ff={value ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
        {value ?? 'not recorded'}
      </Text>
    </div>
  );
}

function Evidence({ flag }: { flag: FlagWithEvidence }) {
  const e = flag.evidence;
  return (
    <Stack>
      <Group gap="xs">
        <Badge color={riskColor(flag.riskScore)} size="lg">
          Risk {flag.riskScore}
        </Badge>
        <StatusBadge status={flag.status} />
        <Text size="sm" c="dimmed">
          {flag.type.toLowerCase()} · {formatDateTime(flag.createdAt)}
        </Text>
      </Group>
      <Text size="sm">
        Referrer <strong>{flag.referrerId}</strong> → referee <strong>{flag.refereeId ?? '—'}</strong> (code {flag.referralCode})
      </Text>
      <div>
        <Title order={3} size="h5">
          Why it was flagged
        </Title>
        <List size="sm">
          {flag.reasons.map((r) => (
            <List.Item key={r}>
              {reasonInWords(r)} <Text span c="dimmed" size="xs">({r})</Text>
            </List.Item>
          ))}
        </List>
      </div>
      <Paper withBorder p="sm">
        <Title order={3} size="h5" mb="xs">
          Signals
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Signal label="IP address" value={e.ip} />
          <Signal label="Device" value={e.deviceId} />
          <Signal label="Email" value={e.email} />
          <Signal label="Click to conversion" value={e.secondsFromClickToConversion === null ? null : `${e.secondsFromClickToConversion.toFixed(1)} s`} />
          <Signal label="User agent" value={e.userAgent} />
        </SimpleGrid>
      </Paper>
      <div>
        <Title order={3} size="h5" mb="xs">
          Linked records ({e.linked.length})
        </Title>
        {e.linked.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing else shares its IP, device or email within the velocity window.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={360}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Shares</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {e.linked.map((l) => (
                  <Table.Tr key={`${l.kind}:${l.id}`}>
                    <Table.Td>{l.kind.toLowerCase()}</Table.Td>
                    <Table.Td>
                      <Text ff="monospace" size="xs">
                        {l.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{l.shares.map((s) => s.toLowerCase()).join(', ')}</Table.Td>
                    <Table.Td>{formatDateTime(l.at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
      {flag.status !== 'OPEN' && (
        <Text size="sm">
          {flag.status === 'APPROVED' ? 'Approved' : 'Rejected'} by {flag.resolvedBy?.email ?? 'an API key'} on {formatDateTime(flag.resolvedAt)}
          {flag.note ? `: “${flag.note}”` : ''}
        </Text>
      )}
    </Stack>
  );
}

/** One flag with the evidence behind it, and its decision. */
export function EvidenceDrawer({ flagId, onClose }: { flagId: string | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const resolve = useResolveFlags();
  const [decision, setDecision] = useState<Decision | null>(null);
  const flag = useQuery({
    queryKey: ['app', appId, 'fraud', 'flag', flagId],
    queryFn: () => ok(api.GET('/api/v1/fraud/flags/{flagId}', { params: { path: { flagId: flagId! } } })).then((d) => d.flag),
    enabled: flagId !== null,
  });
  return (
    <Drawer opened={flagId !== null} onClose={onClose} position="right" size="lg" title="Flag evidence">
      <QueryView query={flag} skeleton={<TableSkeleton rows={6} label="Loading the evidence" />}>
        {(f) => (
          <Stack>
            <Evidence flag={f} />
            {f.status === 'OPEN' && (
              <RoleGate least="MANAGER">
                <Group>
                  <Button color="green" onClick={() => setDecision('APPROVE')}>
                    Approve
                  </Button>
                  <Button color="red" onClick={() => setDecision('REJECT')}>
                    Reject
                  </Button>
                </Group>
                <ResolveDialog
                  key={decision ?? 'closed'}
                  decision={decision}
                  count={1}
                  pending={resolve.isPending}
                  onClose={() => setDecision(null)}
                  onConfirm={(note) =>
                    resolve.mutate(
                      { ids: [f.id], decision: decision!, note },
                      {
                        onSuccess: (result) => {
                          if (result.failed.length > 0) return;
                          setDecision(null);
                          onClose();
                        },
                      },
                    )
                  }
                />
              </RoleGate>
            )}
          </Stack>
        )}
      </QueryView>
    </Drawer>
  );
}
