import { Badge, Button, Drawer, Group, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { FlagDetail, FraudEvidence } from '../../api/types';
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

const SHARED_WORDS = { ip: 'IP address', deviceId: 'device', email: 'email' } as const;

/** What the fraud service recorded: the subject's signals, the click before a conversion, and the records sharing them. */
function Signals({ evidence }: { evidence: FraudEvidence }) {
  const { signals, click, linked, windowMinutes } = evidence;
  return (
    <>
      <Paper withBorder p="sm">
        <Title order={3} size="h5" mb="xs">
          Signals
        </Title>
        {signals === null ? (
          <Text size="sm" c="dimmed">
            The fraud service kept no signal of it.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <Signal label="IP address" value={signals.ip} />
            <Signal label="Device" value={signals.deviceId} />
            <Signal label="Email" value={signals.email} />
            <Signal label="Click to conversion" value={click ? `${click.secondsToConversion.toFixed(1)} s` : null} />
            <Signal label="User agent" value={signals.userAgent} />
            <Signal label="When" value={formatDateTime(signals.at)} />
          </SimpleGrid>
        )}
      </Paper>
      <div>
        <Title order={3} size="h5" mb="xs">
          Linked records ({linked.length})
        </Title>
        {linked.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing else shares its IP address, device or email within {windowMinutes} minutes.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Referrer → referee</Table.Th>
                  <Table.Th>Shares</Table.Th>
                  <Table.Th>When</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {linked.map((l, i) => (
                  <Table.Tr key={`${l.kind}:${l.id ?? i}`}>
                    <Table.Td>
                      {l.kind.toLowerCase()}
                      <Text ff="monospace" size="xs" c="dimmed">
                        {l.id ?? 'refused, not stored'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {l.referrerId} → {l.refereeId ?? '—'}
                      <Text size="xs" c="dimmed">
                        code {l.referralCode}
                      </Text>
                    </Table.Td>
                    <Table.Td>{l.shared.map((s) => SHARED_WORDS[s]).join(', ')}</Table.Td>
                    <Table.Td>{formatDateTime(l.at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </div>
    </>
  );
}

function Evidence({ detail }: { detail: FlagDetail }) {
  const { flag, evidence } = detail;
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
      {evidence ? (
        <Signals evidence={evidence} />
      ) : (
        <Text size="sm" c="dimmed">
          The fraud service did not answer: the signals are not shown. The flag can still be decided.
        </Text>
      )}
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
    queryFn: () => ok(api.GET('/api/v1/fraud/flags/{flagId}', { params: { path: { flagId: flagId! } } })),
    enabled: flagId !== null,
  });
  return (
    <Drawer opened={flagId !== null} onClose={onClose} position="right" size="lg" title="Flag evidence">
      <QueryView query={flag} skeleton={<TableSkeleton rows={6} label="Loading the evidence" />}>
        {(detail) => (
          <Stack>
            <Evidence detail={detail} />
            {detail.flag.status === 'OPEN' && (
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
                      { ids: [detail.flag.id], decision: decision!, note },
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
