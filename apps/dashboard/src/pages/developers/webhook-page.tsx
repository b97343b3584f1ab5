import { Anchor, Badge, Button, Grid, Group, Paper, Select, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ok } from '../../api/api-error';
import type { Webhook } from '../../api/types';
import { notifyError } from '../../app/query-client';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate, useAllows } from '../../session/session-context';
import { ConfirmButton } from '../../ui/confirm-button';
import { applyFieldErrors } from '../../ui/form-errors';
import { formatDateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { DeliveryDrawer, PENDING_REFRESH_MS } from './delivery-drawer';
import { SecretOnceModal } from './secret-once-modal';
import { subscriptionText } from './webhook-events';
import { WebhookForm, updateWebhookRequest, webhookValidation, type WebhookFormValues } from './webhook-form';
import { WebhookState } from './webhooks-panel';

const KEYS = ['status', 'delivery'] as const;
const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

/** One endpoint: its settings, enable/disable, secret rotation, a test event, and its delivery log. */
export function WebhookPage() {
  const { webhookId = '' } = useParams();
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const owner = useAllows('OWNER');
  const navigate = useNavigate();
  const { values, set, page } = useSearchState(KEYS);
  const status = DELIVERY_STATUSES.find((s) => s === values.status);
  const path = { webhookId };
  const list = `/apps/${encodeURIComponent(appId)}/developers?tab=webhooks`;
  const [secret, setSecret] = useState<string | null>(null);

  const webhook = useQuery({
    queryKey: ['app', appId, 'webhook', webhookId],
    queryFn: () => ok(api.GET('/api/v1/webhooks/{webhookId}', { params: { path } })).then((d) => d.webhook),
  });
  const deliveries = useQuery({
    queryKey: ['app', appId, 'webhook', webhookId, 'deliveries', status, page],
    queryFn: () => ok(api.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path, query: { page, limit: 25, ...(status ? { status } : {}) } } })),
    placeholderData: keepPreviousData,
    // While a delivery is still being tried, its attempts show as they happen.
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'PENDING') ? PENDING_REFRESH_MS : false),
  });
  const form = useForm<WebhookFormValues>({ initialValues: { url: '', description: '', events: [] }, validate: webhookValidation });
  useEffect(() => {
    if (webhook.data) {
      form.setValues({ url: webhook.data.url, description: webhook.data.description ?? '', events: webhook.data.events });
      form.resetDirty();
    }
    // Filled once per version of the endpoint read (form is stable).
  }, [webhook.data]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['app', appId, 'webhook', webhookId] });
  const updated = (w: Webhook) => {
    queryClient.setQueryData(['app', appId, 'webhook', webhookId], w);
    void queryClient.invalidateQueries({ queryKey: ['app', appId, 'webhooks'] });
  };
  const save = useMutation({
    mutationFn: (v: WebhookFormValues) => ok(api.PATCH('/api/v1/webhooks/{webhookId}', { params: { path }, body: updateWebhookRequest(v) })).then((d) => d.webhook),
    meta: { errorsShownInForm: true },
    onSuccess: (w) => {
      updated(w);
      notifications.show({ color: 'green', message: 'Endpoint saved.' });
    },
    onError: (err) => {
      if (!applyFieldErrors(form, err)) notifyError(err);
    },
  });
  const setEnabled = useMutation({
    mutationFn: (enabled: boolean) => ok(api.PATCH('/api/v1/webhooks/{webhookId}', { params: { path }, body: { enabled } })).then((d) => d.webhook),
    onSuccess: (w) => {
      updated(w);
      notifications.show({ color: 'green', message: w.enabled ? 'Endpoint enabled.' : 'Endpoint disabled: nothing is sent to it.' });
    },
  });
  const rotate = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/webhooks/{webhookId}/secret/rotate', { params: { path } })),
    onSuccess: (r) => {
      updated(r.webhook);
      setSecret(r.secret);
    },
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/api/v1/webhooks/{webhookId}', { params: { path } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Endpoint deleted: nothing is sent to it any more.' });
      // Back to the list, which is read again; the endpoint's own queries are left alone (read again, they would be 404s).
      void navigate(list, { replace: true });
      void queryClient.invalidateQueries({ queryKey: ['app', appId, 'webhooks'] });
    },
  });
  const test = useMutation({
    mutationFn: () => ok(api.POST('/api/v1/webhooks/{webhookId}/test', { params: { path } })).then((d) => d.delivery),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Test event queued: its delivery shows in the log.' });
      void refresh();
    },
  });

  return (
    <>
      <Anchor component={Link} to={list} size="sm">
        ← Webhooks
      </Anchor>
      <QueryView query={webhook} skeleton={<TableSkeleton rows={6} label="Loading the endpoint" />}>
        {(w) => (
          <>
            <PageHeader
              title="Webhook endpoint"
              description={<span style={{ wordBreak: 'break-all' }}>{w.url}</span>}
              actions={
                <RoleGate least="OWNER">
                  {/* Also while disabled: the API sends a test event to check a receiver before enabling it again. */}
                  <Button variant="light" loading={test.isPending} onClick={() => test.mutate()}>
                    Send test event
                  </Button>
                  <ConfirmButton
                    variant="light"
                    color="orange"
                    title="Rotate the signing secret?"
                    message="A new secret signs from now on; the old one also signs for 24 hours, so your receiver can switch without losing deliveries."
                    confirmLabel="Rotate secret"
                    loading={rotate.isPending}
                    onConfirm={() => rotate.mutateAsync()}
                  >
                    Rotate secret
                  </ConfirmButton>
                  <ConfirmButton
                    variant="light"
                    color="red"
                    title="Delete this endpoint?"
                    message={`Nothing is sent to ${w.url} any more, and its delivery log is deleted with it. This cannot be undone.`}
                    confirmLabel="Delete endpoint"
                    loading={remove.isPending}
                    onConfirm={() => remove.mutateAsync()}
                  >
                    Delete endpoint
                  </ConfirmButton>
                </RoleGate>
              }
            />
            <Grid>
              <Grid.Col span={{ base: 12, xl: 5 }}>
                <Paper withBorder p="md">
                  <Stack gap="xs">
                    <Group gap="xs">
                      <WebhookState {...w} />
                      <Text size="sm">{subscriptionText(w.events)}</Text>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {w.id} · created {formatDateTime(w.createdAt)}
                      {w.previousSecretExpiresAt ? ` · previous secret signs until ${formatDateTime(w.previousSecretExpiresAt)}` : ''}
                    </Text>
                    <RoleGate least="OWNER">
                      <Switch
                        label="Enabled"
                        checked={w.enabled}
                        disabled={setEnabled.isPending}
                        onChange={(e) => setEnabled.mutate(e.currentTarget.checked)}
                      />
                    </RoleGate>
                    {owner ? (
                      <WebhookForm form={form} submitLabel="Save endpoint" submitting={save.isPending} onSubmit={(v) => save.mutate(v)} />
                    ) : (
                      <Text size="sm">Events: {w.events.length === 0 ? 'every event' : w.events.join(', ')}</Text>
                    )}
                  </Stack>
                </Paper>
              </Grid.Col>
              <Grid.Col span={{ base: 12, xl: 7 }}>
                <Group justify="space-between" mb="xs" align="flex-end">
                  <Title order={2} size="h4">
                    Delivery log
                  </Title>
                  <Select
                    label="Status"
                    placeholder="Any"
                    clearable
                    data={DELIVERY_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
                    value={status ?? null}
                    onChange={(v) => set({ status: v })}
                    w={150}
                  />
                </Group>
                <QueryView query={deliveries} isEmpty={(d) => d.deliveries.length === 0} empty={<Empty title="No deliveries" description="Events sent to this endpoint show here, with every attempt." />}>
                  {(d) => (
                    <Stack>
                      <Table.ScrollContainer minWidth={560}>
                        <Table striped highlightOnHover>
                          <Table.Thead>
                            <Table.Tr>
                              <Table.Th>Event</Table.Th>
                              <Table.Th>Status</Table.Th>
                              <Table.Th>Attempts</Table.Th>
                              <Table.Th>Last response</Table.Th>
                              <Table.Th>Last attempt</Table.Th>
                              <Table.Th>Details</Table.Th>
                            </Table.Tr>
                          </Table.Thead>
                          <Table.Tbody>
                            {d.deliveries.map((del) => (
                              <Table.Tr key={del.id}>
                                <Table.Td>
                                  <Text size="sm" ff="monospace">
                                    {del.event}
                                  </Text>
                                </Table.Td>
                                <Table.Td>
                                  <StatusBadge status={del.status} />
                                </Table.Td>
                                <Table.Td>{del.attempts}</Table.Td>
                                <Table.Td>
                                  {del.lastResponseStatus !== null ? (
                                    <Badge color={del.lastResponseStatus < 300 ? 'green' : 'red'}>{del.lastResponseStatus}</Badge>
                                  ) : del.lastError ? (
                                    <Text size="xs">{del.lastError}</Text>
                                  ) : (
                                    '—'
                                  )}
                                </Table.Td>
                                <Table.Td>{formatDateTime(del.lastAttemptAt)}</Table.Td>
                                <Table.Td>
                                  <Button size="compact-sm" variant="light" onClick={() => set({ delivery: del.id })} aria-label={`Attempts of delivery ${del.id}`}>
                                    Attempts
                                  </Button>
                                </Table.Td>
                              </Table.Tr>
                            ))}
                          </Table.Tbody>
                        </Table>
                      </Table.ScrollContainer>
                      <UrlPagination pagination={d.pagination} label="deliveries" />
                    </Stack>
                  )}
                </QueryView>
              </Grid.Col>
            </Grid>
          </>
        )}
      </QueryView>
      <DeliveryDrawer webhookId={webhookId} deliveryId={values.delivery} onClose={() => set({ delivery: null })} />
      <SecretOnceModal title="New signing secret" label="Signing secret" secret={secret} onClose={() => setSecret(null)} />
    </>
  );
}
