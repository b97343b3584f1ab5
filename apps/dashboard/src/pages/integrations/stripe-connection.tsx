import { Alert, Anchor, Badge, Button, Code, CopyButton, Group, List, Paper, PasswordInput, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import type { Body, StripeIntegrationState } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate, useAllows } from '../../session/session-context';
import { ConfirmButton } from '../../ui/confirm-button';
import { Field } from '../../ui/field';
import { formatDateTime } from '../../ui/format';
import { useChange } from '../../ui/use-change';
import { useCampaignOptions } from '../campaigns/use-campaigns';

type ConnectStripe = Body<'/api/v1/integrations/stripe', 'put'>;

/** What the API takes as a Stripe webhook signing secret (ConnectStripeRequest's pattern). */
const SECRET_PATTERN = /^whsec_[A-Za-z0-9+/=_-]{1,250}$/;

/** The Stripe event types the integration turns into conversions, purchases and reversals (docs/api.md). */
export const STRIPE_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'invoice.paid',
  'invoice_payment.paid',
  'charge.refunded',
  'charge.dispute.created',
] as const;

export const STRIPE_KEY = ['integrations', 'stripe'] as const;

/** The form's checks, those the API would refuse on their field. */
export function connectErrors(values: ConnectStripe): Partial<Record<keyof ConnectStripe, string>> {
  const errors: Partial<Record<keyof ConnectStripe, string>> = {};
  const secret = values.webhookSecret.trim();
  if (!secret) errors.webhookSecret = 'Required';
  else if (!SECRET_PATTERN.test(secret)) errors.webhookSecret = 'A Stripe signing secret starts with whsec_ (Developers → Webhooks → your endpoint → Signing secret)';
  if (!values.campaignId) errors.campaignId = 'Pick the campaign';
  return errors;
}

/**
 * Connecting (OWNER): the endpoint's signing secret, pasted, never shown
 * again (a password field), and the campaign whose referral codes the
 * checkouts carry. Again when connected: the secret and campaign replaced,
 * the endpoint URL kept.
 */
function ConnectForm({ connected, campaignId }: { connected: boolean; campaignId: string | null }) {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const campaigns = useCampaignOptions();
  const form = useForm<ConnectStripe>({ initialValues: { webhookSecret: '', campaignId: campaignId ?? '' }, validate: connectErrors });
  const connect = useChange({
    mutationFn: (body: ConnectStripe) => ok(api.PUT('/api/v1/integrations/stripe', { body: { ...body, webhookSecret: body.webhookSecret.trim() } })),
    // The events' list stays; the integration is the answer itself.
    invalidates: [],
    success: () => (connected ? 'Stripe settings saved: the endpoint URL is unchanged.' : 'Stripe connected: add the endpoint URL in your Stripe account.'),
    form,
    onSuccess: (state) => {
      queryClient.setQueryData(['app', appId, ...STRIPE_KEY], state);
      // The secret leaves the page once sent.
      form.setValues({ webhookSecret: '', campaignId: state.integration?.campaignId ?? '' });
      form.resetDirty();
    },
  });
  return (
    <form onSubmit={form.onSubmit((v) => connect.mutate(v))} noValidate aria-label={connected ? 'Replace the Stripe secret or campaign' : 'Connect Stripe'}>
      <Stack>
        <PasswordInput
          label="Webhook signing secret"
          description={connected ? "Your endpoint's signing secret in Stripe; it replaces the one stored." : "Your endpoint's signing secret in Stripe (whsec_…). Stored encrypted, never shown again."}
          placeholder="whsec_…"
          required
          autoComplete="off"
          {...form.getInputProps('webhookSecret')}
        />
        <Select
          label="Campaign"
          description="Checkouts with a referral code of this campaign become its conversions."
          placeholder={campaigns.isPending ? 'Loading campaigns…' : 'Pick a campaign'}
          required
          searchable
          data={campaigns.data ?? []}
          {...form.getInputProps('campaignId')}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={connect.isPending}>
            {connected ? 'Save' : 'Connect Stripe'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The endpoint URL to give Stripe, with a copy button. */
function EndpointUrl({ url }: { url: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Endpoint URL
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code block aria-label="Endpoint URL" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1, minWidth: 0 }}>
          {url}
        </Code>
        <CopyButton value={url}>
          {({ copied, copy }) => (
            <Button variant="light" color={copied ? 'teal' : undefined} onClick={copy} aria-label={copied ? 'Endpoint URL copied' : 'Copy the endpoint URL'}>
              {copied ? 'Copied' : 'Copy'}
            </Button>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

/**
 * The app's Stripe connection (GET /integrations/stripe): not connected,
 * how to connect; connected, the endpoint URL to add in Stripe (with the
 * event types to send), the campaign, and, for an OWNER, the secret
 * replaced or the connection ended.
 */
export function StripeConnection({ state }: { state: StripeIntegrationState }) {
  const api = useApi();
  const appId = useAppId();
  const owner = useAllows('OWNER');
  const queryClient = useQueryClient();
  const campaigns = useCampaignOptions();
  const disconnect = useChange({
    mutationFn: () => ok(api.DELETE('/api/v1/integrations/stripe')),
    invalidates: [STRIPE_KEY],
    success: () => 'Stripe disconnected: its events are refused from now on.',
    onSuccess: () => queryClient.setQueryData(['app', appId, ...STRIPE_KEY], { connected: false, integration: null }),
  });
  const integration = state.integration;
  const campaignName = integration ? (campaigns.data?.find((c) => c.value === integration.campaignId)?.label ?? integration.campaignId) : null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="stripe-connection">
      <Stack>
        <Group justify="space-between" align="flex-start" wrap="wrap">
          <Group gap="xs">
            <Title order={2} size="h4" id="stripe-connection">
              Stripe
            </Title>
            <Badge color={integration ? 'green' : 'gray'} variant="light">
              {integration ? 'connected' : 'not connected'}
            </Badge>
          </Group>
          {integration && (
            <RoleGate least="OWNER">
              <ConfirmButton
                variant="light"
                color="red"
                title="Disconnect Stripe?"
                message="The signing secret is forgotten and every event Stripe sends to the endpoint is refused (Stripe retries them, then disables the endpoint). The events received so far stay listed. Connecting again makes a new endpoint URL."
                confirmLabel="Disconnect Stripe"
                loading={disconnect.isPending}
                onConfirm={() => disconnect.mutateAsync(undefined)}
              >
                Disconnect
              </ConfirmButton>
            </RoleGate>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Stripe&apos;s events become your program&apos;s records: a paid checkout with a referral code (in <Code>metadata.referralCode</Code> or{' '}
          <Code>client_reference_id</Code>) a conversion, a subscription&apos;s later invoices its purchases, refunds and disputes its reversals.
        </Text>
        {integration ? (
          <>
            <EndpointUrl url={integration.endpointUrl} />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <Field label="Campaign">
                <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/campaigns/${encodeURIComponent(integration.campaignId)}`} size="sm">
                  {campaignName}
                </Anchor>
              </Field>
              <Field label="Connected">{formatDateTime(integration.connectedAt)}</Field>
              <Field label="Secret or campaign changed">{formatDateTime(integration.updatedAt)}</Field>
            </SimpleGrid>
            <Alert color="blue" title="In your Stripe account">
              <List size="sm" type="ordered" spacing={4}>
                <List.Item>Developers → Webhooks → Add endpoint, with the endpoint URL above.</List.Item>
                <List.Item>
                  Send these events: {STRIPE_EVENT_TYPES.map((t, i) => (
                    <span key={t}>
                      {i > 0 && ', '}
                      <Code>{t}</Code>
                    </span>
                  ))}
                  .
                </List.Item>
                <List.Item>Reveal the endpoint&apos;s signing secret and paste it below: the URL stays the same.</List.Item>
              </List>
            </Alert>
          </>
        ) : (
          <Text size="sm">
            {owner
              ? "Paste a webhook signing secret and pick the campaign: the endpoint URL then shows here. Stripe makes an endpoint's secret when the endpoint is added, so once it is, paste that secret here again (the URL stays)."
              : 'Not connected. An owner of the app connects it.'}
          </Text>
        )}
        <RoleGate least="OWNER">
          <ConnectForm key={integration?.updatedAt ?? 'new'} connected={integration !== null} campaignId={integration?.campaignId ?? null} />
        </RoleGate>
      </Stack>
    </Paper>
  );
}
