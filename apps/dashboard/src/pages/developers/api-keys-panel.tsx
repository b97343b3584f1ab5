import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { ConfirmButton } from '../../ui/confirm-button';
import { formatDateTime } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { SecretOnceModal } from './secret-once-modal';

/** A key as people tell it apart: its name when it has one, else its prefix. */
function keyTitle(k: { name: string | null; prefix: string }): string {
  return k.name ? `“${k.name}”` : `${k.prefix}…`;
}

/** The app's API keys (OWNER): issue one (named, shown once), revoke, and when each was last used. */
export function ApiKeysPanel() {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const path = { appId };
  const key = ['app', appId, 'keys'];
  const keys = useQuery({ queryKey: key, queryFn: () => ok(api.GET('/console/v1/apps/{appId}/keys', { params: { path } })).then((d) => d.keys) });
  // The new key lives only in this state, never in the query cache: closing the dialog forgets it.
  const [issued, setIssued] = useState<string | null>(null);
  const [name, setName] = useState('');
  const issue = useMutation({
    // Unnamed keys are issued without a body, as before names existed.
    mutationFn: (named: string) => ok(api.POST('/console/v1/apps/{appId}/keys', { params: { path }, ...(named ? { body: { name: named } } : {}) })).then((d) => d.key),
    onSuccess: (k) => {
      setIssued(k.apiKey);
      setName('');
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const revoke = useMutation({
    mutationFn: (keyId: string) => ok(api.DELETE('/console/v1/apps/{appId}/keys/{keyId}', { params: { path: { appId, keyId } } })),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Key revoked: it no longer works.' });
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Your backend calls the API with a key: <Text span ff="monospace">Authorization: Bearer rk_live_…</Text>
      </Text>
      <form
        aria-label="Issue an API key"
        onSubmit={(e) => {
          e.preventDefault();
          issue.mutate(name.trim());
        }}
      >
        <Group align="flex-end" gap="xs">
          <TextInput
            label="Name"
            description="Optional: what the key is for"
            placeholder="e.g. Production backend"
            maxLength={100}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            w={{ base: '100%', xs: 280 }}
          />
          <Button type="submit" loading={issue.isPending}>
            Issue a key
          </Button>
        </Group>
      </form>
      <QueryView query={keys} isEmpty={(k) => k.length === 0} empty={<Empty title="No keys" description="Issue a key for your backend to call the API." />}>
        {(list) => (
          <Table.ScrollContainer minWidth={620}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Last used</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((k) => (
                  <Table.Tr key={k.id}>
                    <Table.Td>
                      {k.name && (
                        <Text size="sm" fw={500}>
                          {k.name}
                        </Text>
                      )}
                      <Text ff="monospace" size="sm">
                        {k.prefix}…
                      </Text>
                      <Text size="xs" c="dimmed">
                        {k.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDateTime(k.createdAt)}</Table.Td>
                    <Table.Td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'never'}</Table.Td>
                    <Table.Td>{k.revokedAt ? <Badge color="gray">revoked {formatDateTime(k.revokedAt)}</Badge> : <Badge color="green">active</Badge>}</Table.Td>
                    <Table.Td>
                      {!k.revokedAt && (
                        <ConfirmButton
                          size="compact-sm"
                          variant="light"
                          color="red"
                          title={`Revoke ${keyTitle(k)}?`}
                          message="Calls with this key are refused from now on (within seconds on every gateway). This cannot be undone."
                          confirmLabel="Revoke key"
                          loading={revoke.isPending}
                          onConfirm={() => revoke.mutateAsync(k.id)}
                          aria-label={`Revoke key ${k.prefix}`}
                        >
                          Revoke
                        </ConfirmButton>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryView>
      <SecretOnceModal title="Your new API key" label="API key" secret={issued} onClose={() => setIssued(null)} />
    </Stack>
  );
}
