import { Alert, Anchor, Button, Center, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage, ok } from '../api/api-error';
import { useApi } from '../api/use-api';
import type { InvitationLink } from '../api/types';
import { MIN_PASSWORD_LENGTH } from '../layout/operator-menu';
import { applyFieldErrors } from '../ui/form-errors';
import { formatDateTime } from '../ui/format';
import { landingPath } from './sign-in-page';
import { SESSION_KEY } from './session-key';

/** A page of its own, like sign-in: a card in the middle of the screen. */
function Card({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        {children}
      </Paper>
    </Center>
  );
}

/** Sets the password (twice for a new account, once for one the address has already) and accepts. */
function AcceptForm({ token, invitation }: { token: string; invitation: InvitationLink }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const fresh = !invitation.hasAccount;
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: {
      password: (v) =>
        fresh ? (v.length >= MIN_PASSWORD_LENGTH ? null : `Too short: at least ${MIN_PASSWORD_LENGTH} characters`) : v.length > 0 ? null : 'Enter your password',
      repeat: (v, values) => (!fresh || v === values.password ? null : 'The passwords differ'),
    },
  });
  const accept = useMutation({
    mutationFn: (password: string) => ok(api.POST('/console/v1/invitations/{token}/accept', { params: { path: { token } }, body: { password } })),
    meta: { errorsShownInForm: true, signIn: true },
    onSuccess: (session) => {
      // Signed in now: whatever was read before (as nobody) is forgotten, and they land in the app they joined.
      queryClient.clear();
      queryClient.setQueryData(SESSION_KEY, session);
      void navigate(landingPath(session, null), { replace: true });
    },
    onError: (err) => applyFieldErrors(form, err),
  });
  const error = accept.error;
  return (
    <form onSubmit={form.onSubmit((values) => accept.mutate(values.password))} noValidate aria-label="Accept the invitation">
      <Stack>
        {error && !(error instanceof ApiError && error.issues.length > 0) && (
          <Alert color="red" role="alert" title={error instanceof ApiError && error.status === 429 ? 'Too many attempts' : 'Could not accept'}>
            {errorMessage(error)}
          </Alert>
        )}
        {/* The address, for the browser's password manager to store the new password under. */}
        <TextInput label="Email" value={invitation.email} autoComplete="username" readOnly />
        {fresh ? (
          <>
            <PasswordInput
              label="Choose a password"
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            <PasswordInput label="Repeat the password" autoComplete="new-password" required {...form.getInputProps('repeat')} />
          </>
        ) : (
          <PasswordInput
            label="Password of your account"
            description="This address has an account already: accepting adds the app to it."
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
        )}
        <Button type="submit" loading={accept.isPending} fullWidth>
          {fresh ? 'Set password and join' : 'Join'}
        </Button>
      </Stack>
    </form>
  );
}

/**
 * /invite/:token, the page an invitation's link opens, without a session:
 * who invited the address to which app, a password to choose, and once
 * accepted the app itself, signed in. A link that cannot be used (unknown,
 * used, revoked, expired) is told as one.
 */
export function InvitePage() {
  const api = useApi();
  const { token = '' } = useParams();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => ok(api.GET('/console/v1/invitations/{token}', { params: { path: { token } } })).then((d) => d.invitation),
    staleTime: Infinity,
  });

  if (invitation.isPending) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading the invitation" />
      </Center>
    );
  }
  if (invitation.isError) {
    const notValid = invitation.error instanceof ApiError && (invitation.error.status === 404 || invitation.error.status === 400);
    return (
      <Card>
        <Stack>
          <Title order={1} size="h2">
            {notValid ? 'This invitation link is not valid' : 'The invitation could not be read'}
          </Title>
          <Alert color={notValid ? 'yellow' : 'red'} role="alert">
            {notValid ? 'It was used already, revoked or replaced by a newer link, or it expired. Ask the person who invited you for a new link.' : errorMessage(invitation.error)}
          </Alert>
          <Anchor component={Link} to="/sign-in" size="sm">
            Sign in with an account
          </Anchor>
        </Stack>
      </Card>
    );
  }
  const data = invitation.data;
  return (
    <Card>
      <Stack>
        <div>
          <Title order={1} size="h2">
            Join {data.app.name}
          </Title>
          <Text size="sm">
            <strong>{data.invitedBy}</strong> invited <strong>{data.email}</strong> to work in <strong>{data.app.name}</strong> as {data.role.toLowerCase()}, in the
            Referral and Incentive Service dashboard.
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            The link works once, until {formatDateTime(data.expiresAt)}.
          </Text>
        </div>
        <AcceptForm token={token} invitation={data} />
      </Stack>
    </Card>
  );
}
