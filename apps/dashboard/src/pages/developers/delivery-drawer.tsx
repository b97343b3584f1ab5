import { Badge, Button, Code, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { formatDateTime } from '../../ui/format';
import { QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';

/** How often a delivery log or a delivery still being tried is read again. */
export const PENDING_REFRESH_MS = 2_000;

/** One delivery: its body and every attempt with the answer it got, and a retry. */
export function DeliveryDrawer({ webhookId, deliveryId, onClose }: { webhookId: string; deliveryId: string | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const path = { webhookId, deliveryId: deliveryId ?? '' };
  const delivery = useQuery({
    queryKey: ['app', appId, 'webhook', webhookId, 'delivery', deliveryId],
    queryFn: () => ok(api.GET('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}', { params: { path } })).then((d) => d.delivery),
    enabled: deliveryId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'PENDING' ? PENDING_REFRESH_MS : false),
  });
  const retry = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry', { params: { path } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Sent again: the new attempt shows here in a moment.' });
      void queryClient.invalidateQueries({ queryKey: ['app', appId, 'webhook', webhookId] });
    },
  });
  return (
    <Drawer opened={deliveryId !== null} onClose={onClose} position="right" size="xl" title="Delivery">
      <QueryView query={delivery} skeleton={<TableSkeleton rows={5} label="Loading the delivery" />}>
        {(d) => (
          <Stack>
            <Group gap="xs">
              <StatusBadge status={d.status} />
              <Text size="sm" ff="monospace">
                {d.event}
              </Text>
              <Text size="xs" c="dimmed">
                {d.messageId}
              </Text>
            </Group>
            <Text size="sm">
              {d.attempts} attempt{d.attempts === 1 ? '' : 's'} · created {formatDateTime(d.createdAt)}
              {d.nextAttemptAt ? ` · next attempt ${formatDateTime(d.nextAttemptAt)}` : ''}
              {d.completedAt ? ` · finished ${formatDateTime(d.completedAt)}` : ''}
            </Text>
            <RoleGate least="OWNER">
              <Group>
                <Button variant="light" loading={retry.isPending} onClick={() => retry.mutate()}>
                  Retry now
                </Button>
              </Group>
            </RoleGate>
            <Title order={3} size="h5">
              Attempts
            </Title>
            {d.attemptLog.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not attempted yet.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>#</Table.Th>
                      <Table.Th>Started</Table.Th>
                      <Table.Th>Took</Table.Th>
                      <Table.Th>Response</Table.Th>
                      <Table.Th>Answer or error</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {d.attemptLog.map((a) => (
                      <Table.Tr key={a.number}>
                        <Table.Td>{a.number}</Table.Td>
                        <Table.Td>{formatDateTime(a.startedAt)}</Table.Td>
                        <Table.Td>{a.durationMs} ms</Table.Td>
                        <Table.Td>
                          {a.responseStatus === null ? (
                            <Badge color="red">no answer</Badge>
                          ) : (
                            <Badge color={a.responseStatus < 300 ? 'green' : 'red'}>{a.responseStatus}</Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                            {a.error ?? (a.responseBody || '(empty)')}
                            {a.responseBodyTruncated ? ' …' : ''}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Title order={3} size="h5">
              Body sent
            </Title>
            <Code block>{JSON.stringify(d.payload, null, 2)}</Code>
          </Stack>
        )}
      </QueryView>
    </Drawer>
  );
}
