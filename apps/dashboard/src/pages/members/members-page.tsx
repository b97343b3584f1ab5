import { Button, Group, Paper, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import type { IssuedInvitation, Role } from '../../api/types';
import { notifyError } from '../../app/query-client';
import { useApi, useAppId } from '../../api/use-api';
import { useSession } from '../../session/session-context';
import { ConfirmButton } from '../../ui/confirm-button';
import { applyFieldErrors } from '../../ui/form-errors';
import { formatDateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { InvitationLinkModal } from './invitation-link-modal';
import { PendingInvitations } from './pending-invitations';

export const ROLES: { value: Role; label: string; description: string }[] = [
  { value: 'OWNER', label: 'Owner', description: 'everything, including keys, webhooks and members' },
  { value: 'MANAGER', label: 'Manager', description: 'campaigns, fraud decisions and rewards' },
  { value: 'VIEWER', label: 'Viewer', description: 'reads only' },
];
const roleData = ROLES.map((r) => ({ value: r.value, label: r.label }));

/** The app's operators and their roles (OWNER): add or invite, change a role, remove; the invitations not accepted yet. */
export function MembersPage() {
  const api = useApi();
  const appId = useAppId();
  const session = useSession();
  const queryClient = useQueryClient();
  const key = ['app', appId, 'members'];
  const path = { appId };
  const team = useQuery({ queryKey: key, queryFn: () => ok(api.GET('/console/v1/apps/{appId}/members', { params: { path } })) });
  const [issued, setIssued] = useState<IssuedInvitation | null>(null);
  const form = useForm<{ email: string; role: Role }>({
    initialValues: { email: '', role: 'VIEWER' },
    validate: { email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'An email address') },
  });
  const add = useMutation({
    mutationFn: (v: { email: string; role: Role }) => ok(api.POST('/console/v1/apps/{appId}/members', { params: { path }, body: { email: v.email.trim(), role: v.role } })),
    meta: { errorsShownInForm: true },
    onSuccess: (answer) => {
      form.reset();
      void queryClient.invalidateQueries({ queryKey: key });
      // An address without an account is invited (202): its link is shown once to copy.
      if ('invitation' in answer) setIssued(answer);
      else notifications.show({ color: 'green', message: `${answer.member.email} added as ${answer.member.role.toLowerCase()}.` });
    },
    onError: (err) => {
      if (!applyFieldErrors(form, err)) notifyError(err);
    },
  });
  const changeRole = useMutation({
    mutationFn: ({ operatorId, role }: { operatorId: string; role: Role }) =>
      ok(api.PATCH('/console/v1/apps/{appId}/members/{operatorId}', { params: { path: { appId, operatorId } }, body: { role } })),
    onSuccess: (answer) => notifications.show({ color: 'green', message: `${answer.member.email} is now ${answer.member.role.toLowerCase()}.` }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: (operatorId: string) => ok(api.DELETE('/console/v1/apps/{appId}/members/{operatorId}', { params: { path: { appId, operatorId } } })),
    onSuccess: () => notifications.show({ color: 'green', message: 'Member removed.' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });

  return (
    <>
      <PageHeader title="Members" description="Who can open this app in the dashboard, and what each may do." />
      <Paper withBorder p="md" mb="md">
        <Title order={2} size="h4" mb="xs">
          Add a member
        </Title>
        <form onSubmit={form.onSubmit((v) => add.mutate(v))} noValidate aria-label="Add a member">
          <Group align="flex-start" wrap="wrap">
            <TextInput label="Email" type="email" required w={{ base: '100%', xs: 280 }} {...form.getInputProps('email')} />
            <Select label="Role" data={roleData} allowDeselect={false} w={160} {...form.getInputProps('role')} />
            <Button type="submit" mt={25} loading={add.isPending}>
              Add
            </Button>
          </Group>
          <Text size="xs" c="dimmed" mt="xs">
            Someone with an account is added at once; someone without one is invited by a link that works once and expires, shown to you to copy (and
            e-mailed when e-mail is configured). {ROLES.map((r) => `${r.label}: ${r.description}.`).join(' ')}
          </Text>
        </form>
      </Paper>
      <QueryView query={team} isEmpty={(t) => t.members.length === 0 && t.invitations.length === 0} empty={<Empty title="No members" />}>
        {({ members: list, invitations }) => (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Operator</Table.Th>
                    <Table.Th>Role</Table.Th>
                    <Table.Th>Added</Table.Th>
                    <Table.Th>Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {list.map((m) => (
                    <Table.Tr key={m.operatorId}>
                      <Table.Td>
                        {m.email}
                        {m.operatorId === session.operator.id && (
                          <Text span size="xs" c="dimmed">
                            {' '}
                            (you)
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Select
                          aria-label={`Role of ${m.email}`}
                          data={roleData}
                          value={m.role}
                          allowDeselect={false}
                          size="xs"
                          w={130}
                          disabled={changeRole.isPending}
                          onChange={(role) => role && role !== m.role && changeRole.mutate({ operatorId: m.operatorId, role: role as Role })}
                        />
                      </Table.Td>
                      <Table.Td>{formatDateTime(m.addedAt)}</Table.Td>
                      <Table.Td>
                        <ConfirmButton
                          size="compact-sm"
                          variant="light"
                          color="red"
                          title={`Remove ${m.email}?`}
                          message="They can no longer open this app. Their account stays, with their other apps."
                          confirmLabel="Remove"
                          loading={remove.isPending}
                          onConfirm={() => remove.mutateAsync(m.operatorId)}
                          aria-label={`Remove ${m.email}`}
                        >
                          Remove
                        </ConfirmButton>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <PendingInvitations invitations={invitations} onLink={setIssued} />
          </>
        )}
      </QueryView>
      <InvitationLinkModal issued={issued} onClose={() => setIssued(null)} />
    </>
  );
}
