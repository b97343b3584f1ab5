import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorMessage, ok } from '../api/api-error';
import { useApi } from '../api/use-api';
import type { ConsoleSession } from '../api/types';
import { applyFieldErrors } from '../ui/form-errors';
import { SESSION_KEY } from './session-key';

/** A return path inside the dashboard only (never another site). */
export function safeReturnTo(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/sign-in') ? value : null;
}

/**
 * Where an operator lands after sign-in: back where they were, else the
 * overview of their current app (the one they used last), else the start
 * page, which tells an operator of no app so.
 */
export function landingPath(session: ConsoleSession, returnTo: string | null): string {
  const back = safeReturnTo(returnTo);
  if (back) return back;
  return session.currentAppId ? `/apps/${encodeURIComponent(session.currentAppId)}/overview` : '/';
}

export function SignInPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (v) => (/^\S+@\S+$/.test(v.trim()) ? null : 'Enter your email address'),
      password: (v) => (v.length > 0 ? null : 'Enter your password'),
    },
  });
  const signIn = useMutation({
    mutationFn: (values: { email: string; password: string }) =>
      ok(api.POST('/console/v1/session', { body: { email: values.email.trim(), password: values.password } })),
    meta: { errorsShownInForm: true, signIn: true },
    onSuccess: (session) => {
      queryClient.clear();
      queryClient.setQueryData(SESSION_KEY, session);
      void navigate(landingPath(session, params.get('returnTo')), { replace: true });
    },
    onError: (err) => applyFieldErrors(form, err),
  });

  const error = signIn.error;
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={400}>
        <form onSubmit={form.onSubmit((values) => signIn.mutate(values))} noValidate>
          <Stack>
            <div>
              <Title order={1} size="h2">
                Sign in
              </Title>
              <Text c="dimmed" size="sm">
                Referral and Incentive Service dashboard
              </Text>
            </div>
            {error && !(error instanceof ApiError && error.issues.length > 0) && (
              <Alert color="red" role="alert" title={error instanceof ApiError && error.status === 429 ? 'Too many attempts' : 'Could not sign in'}>
                {errorMessage(error)}
              </Alert>
            )}
            <TextInput label="Email" type="email" autoComplete="username" required {...form.getInputProps('email')} />
            <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
            <Button type="submit" loading={signIn.isPending} fullWidth>
              Sign in
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
