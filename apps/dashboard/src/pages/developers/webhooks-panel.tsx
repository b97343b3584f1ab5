import { Anchor, Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import { notifyError } from '../../app/query-client';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { applyFieldErrors } from '../../ui/form-errors';
import { formatDateTime } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { SecretOnceModal } from './secret-once-modal';
import { subscriptionText } from './webhook-events';
import { WebhookForm, createWebhookRequest, webhookValidation, type WebhookFormValues } from './webhook-form';

const NO_KEYS: readonly string[] = [];

/** Endpoint state in words: enabled, disabled by hand, or disabled after failing for days. */
export function WebhookState({ enabled, disabledReason, failingSince }: { enabled: boolean; disabledReason: string | null; failingSince: string | null }) {
  if (!enabled) return <Badge color="gray">{disabledReason === 'FAILING' ? 'disabled: kept failing' : 'disabled'}</Badge>;
  if (failingSince) return <Badge color="orange">failing since {formatDateTime(failingSince)}</Badge>;
  return <Badge color="green">enabled</Badge>;
}

/** The app's webhook endpoints; an OWNER adds one (its signing secret shown once). */
export function WebhooksPanel() {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const { page } = useSearchState(NO_KEYS);
  const [opened, { open, close }] = useDisclosure(false);
  const [secret, setSecret] = useState<string | null>(null);
  const webhooks = useQuery({
    queryKey: ['app', appId, 'webhooks', page],
    queryFn: () => ok(api.GET('/api/v1/webhooks', { params: { query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const form = useForm<WebhookFormValues>({ initialValues: { url: '', description: '', events: [] }, validate: webhookValidation });
  const create = useMutation({
    mutationFn: (values: WebhookFormValues) => ok(api.POST('/api/v1/webhooks', { body: createWebhookRequest(values) })),
    meta: { errorsShownInForm: true },
    onSuccess: (created) => {
      close();
      form.reset();
      setSecret(created.secret);
      void queryClient.invalidateQueries({ queryKey: ['app', appId, 'webhooks'] });
    },
    onError: (err) => {
      if (!applyFieldErrors(form, err)) notifyError(err);
    },
  });
  const base = `/apps/${encodeURIComponent(appId)}/developers/webhooks`;
  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Endpoints receive your app&apos;s events, signed the Standard Webhooks way.
        </Text>
        <RoleGate least="OWNER">
          <Button onClick={open}>Add endpoint</Button>
        </RoleGate>
      </Group>
      <QueryView query={webhooks} isEmpty={(d) => d.webhooks.length === 0} empty={<Empty title="No endpoints" description="Add an endpoint to receive events as they happen." />}>
        {(d) => (
          <Stack>
            <Table.ScrollContainer minWidth={640}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>URL</Table.Th>
                    <Table.Th>Events</Table.Th>
                    <Table.Th>State</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.webhooks.map((w) => (
                    <Table.Tr key={w.id}>
                      <Table.Td>
                        <Anchor component={Link} to={`${base}/${encodeURIComponent(w.id)}`} style={{ wordBreak: 'break-all' }}>
                          {w.url}
                        </Anchor>
                        {w.description && (
                          <Text size="xs" c="dimmed">
                            {w.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{subscriptionText(w.events)}</Table.Td>
                      <Table.Td>
                        <WebhookState {...w} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(w.createdAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={d.pagination} label="endpoints" />
          </Stack>
        )}
      </QueryView>
      <Modal opened={opened} onClose={close} title="Add a webhook endpoint" centered size="lg">
        <WebhookForm form={form} submitLabel="Add endpoint" submitting={create.isPending} onSubmit={(v) => create.mutate(v)} />
      </Modal>
      <SecretOnceModal title="Endpoint added" label="Signing secret" secret={secret} onClose={() => setSecret(null)}>
        <Text size="sm">Verify each delivery&apos;s signature with this secret (e.g. with the standardwebhooks library).</Text>
      </SecretOnceModal>
    </Stack>
  );
}
