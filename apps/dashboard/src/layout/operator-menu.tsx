import { Alert, Button, Menu, Modal, PasswordInput, Stack, UnstyledButton, Text, Avatar, Group } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { ApiError, errorMessage, ok } from '../api/api-error';
import { useApi } from '../api/use-api';
import { useSession } from '../session/session-context';
import { useSignOut } from '../session/use-session-actions';
import { applyFieldErrors } from '../ui/form-errors';

export const MIN_PASSWORD_LENGTH = 12;

function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const api = useApi();
  const form = useForm({
    initialValues: { currentPassword: '', newPassword: '', repeat: '' },
    validate: {
      currentPassword: (v) => (v ? null : 'Enter your current password'),
      newPassword: (v) => (v.length >= MIN_PASSWORD_LENGTH ? null : `Too short: at least ${MIN_PASSWORD_LENGTH} characters`),
      repeat: (v, values) => (v === values.newPassword ? null : 'The passwords differ'),
    },
  });
  const change = useMutation({
    mutationFn: (values: { currentPassword: string; newPassword: string }) =>
      ok(api.POST('/console/v1/session/password', { body: { currentPassword: values.currentPassword, newPassword: values.newPassword } })),
    // A wrong current password is 422 CURRENT_PASSWORD_WRONG (a 401 here means the session ended, as anywhere).
    meta: { errorsShownInForm: true },
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Password changed. Your other sessions are signed out.' });
      form.reset();
      onClose();
    },
    onError: (err) => {
      if (err instanceof ApiError && err.code === 'CURRENT_PASSWORD_WRONG') form.setFieldError('currentPassword', err.message);
      else applyFieldErrors(form, err);
    },
  });
  const error = change.error;
  return (
    <Modal opened={opened} onClose={onClose} title="Change password" centered>
      <form onSubmit={form.onSubmit((v) => change.mutate(v))} noValidate>
        <Stack>
          {error && !(error instanceof ApiError && error.issues.length > 0) && (
            <Alert color="red" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
          <PasswordInput label="Current password" autoComplete="current-password" required {...form.getInputProps('currentPassword')} />
          <PasswordInput
            label="New password"
            description={`At least ${MIN_PASSWORD_LENGTH} characters`}
            autoComplete="new-password"
            required
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput label="Repeat the new password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** The signed-in operator: change password, sign out. */
export function OperatorMenu() {
  const session = useSession();
  const signOut = useSignOut();
  const [passwordOpened, password] = useDisclosure(false);
  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={`Operator menu: ${session.operator.email}`}>
            <Group gap={6} wrap="nowrap">
              <Avatar size="sm" radius="xl" color="blue">
                {session.operator.email.slice(0, 1).toUpperCase()}
              </Avatar>
              <Text size="sm" visibleFrom="md" truncate maw={200}>
                {session.operator.email}
              </Text>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            {session.operator.email}
            {session.operator.isAdmin ? ' · administrator' : ''}
          </Menu.Label>
          <Menu.Item onClick={password.open}>Change password</Menu.Item>
          <Menu.Item color="red" onClick={() => signOut.mutate()}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ChangePasswordModal opened={passwordOpened} onClose={password.close} />
    </>
  );
}
