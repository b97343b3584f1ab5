import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ok } from '../../api/api-error';
import type { Invitation, IssuedInvitation } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { ConfirmButton } from '../../ui/confirm-button';
import { formatDateTime } from '../../ui/format';

/**
 * The app's invitations not accepted yet: a new link (re-send: the one
 * before it stops working, the new one is shown to copy) or revoke.
 */
export function PendingInvitations({ invitations, onLink }: { invitations: Invitation[]; onLink: (issued: IssuedInvitation) => void }) {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const key = ['app', appId, 'members'];
  const path = (invitationId: string) => ({ path: { appId, invitationId } });
  const resend = useMutation({
    mutationFn: (invitationId: string) => ok(api.POST('/console/v1/apps/{appId}/invitations/{invitationId}/resend', { params: path(invitationId) })),
    onSuccess: onLink,
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => ok(api.DELETE('/console/v1/apps/{appId}/invitations/{invitationId}', { params: path(invitationId) })),
    onSuccess: () => notifications.show({ color: 'green', message: 'Invitation revoked: its link no longer works.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  if (invitations.length === 0) return null;
  return (
    <section aria-label="Pending invitations">
      <Title order={2} size="h4" mt="lg" mb="xs">
        Pending invitations
      </Title>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Email</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Link expires</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {invitations.map((i) => (
              <Table.Tr key={i.id}>
                <Table.Td>{i.email}</Table.Td>
                <Table.Td>{i.role.charAt(0) + i.role.slice(1).toLowerCase()}</Table.Td>
                <Table.Td>
                  {i.status === 'EXPIRED' ? (
                    <Badge color="gray" variant="light">
                      Expired
                    </Badge>
                  ) : (
                    formatDateTime(i.expiresAt)
                  )}
                  <Text size="xs" c="dimmed">
                    invited by {i.invitedBy.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      loading={resend.isPending && resend.variables === i.id}
                      onClick={() => resend.mutate(i.id)}
                      aria-label={`New link for ${i.email}`}
                    >
                      New link
                    </Button>
                    <ConfirmButton
                      size="compact-sm"
                      variant="light"
                      color="red"
                      title={`Revoke the invitation of ${i.email}?`}
                      message="Its link stops working at once."
                      confirmLabel="Revoke"
                      loading={revoke.isPending}
                      onConfirm={() => revoke.mutateAsync(i.id)}
                      aria-label={`Revoke the invitation of ${i.email}`}
                    >
                      Revoke
                    </ConfirmButton>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed" mt="xs">
        A link is shown only when it is made: a new link replaces the one before it (which stops working) and is e-mailed again when e-mail is configured.
      </Text>
    </section>
  );
}
