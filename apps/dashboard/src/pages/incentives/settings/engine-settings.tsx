import { Button, NumberInput, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ok } from '../../../api/api-error';
import type { IncentiveSettings } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { useAllows } from '../../../session/session-context';
import { formatDateTime } from '../../../ui/format';
import { QueryView, TableSkeleton } from '../../../ui/query-state';
import { useChange } from '../../../ui/use-change';
import { MAX_EXPIRY_DAYS, MIN_EXPIRY_DAYS, expiryDaysRule, expiryFormValues, expiryRequest, expiryText, type ExpiryValues } from './expiry-request';

/** Whole days from 1 to 3650; out of range is said by the form rule rather than clamped away. */
const DAYS = { min: MIN_EXPIRY_DAYS, max: MAX_EXPIRY_DAYS, allowDecimal: false, allowNegative: false, clampBehavior: 'none', placeholder: 'Never' } as const;

/**
 * When the app's coins and tokens expire: shown to all, set by a MANAGER or
 * OWNER (PUT /incentives/settings); an empty field is never.
 */
function ExpirySetting({ settings }: { settings: IncentiveSettings }) {
  const api = useApi();
  const canWrite = useAllows('MANAGER');
  const form = useForm<ExpiryValues>({
    initialValues: expiryFormValues(settings),
    validate: { coinExpiryDays: expiryDaysRule, tokenExpiryDays: expiryDaysRule },
  });
  useEffect(() => {
    form.setValues(expiryFormValues(settings));
    form.resetDirty();
    // Filled again with each version read (form is this component's own).
  }, [settings.coinExpiryDays, settings.tokenExpiryDays]);
  const save = useChange({
    mutationFn: (values: ExpiryValues) => ok(api.PUT('/api/v1/incentives/settings', { body: expiryRequest(values) })).then((d) => d.settings),
    invalidates: [['incentive-settings']],
    success: (s) => `Expiry saved: ${expiryText('coins', s.coinExpiryDays)}, ${expiryText('tokens', s.tokenExpiryDays)}.`,
    form,
  });
  const updated = settings.updatedAt ? `Set ${formatDateTime(settings.updatedAt)}.` : 'Never set: credits do not expire.';
  if (!canWrite) {
    return (
      <Stack gap="xs">
        <SimpleGrid cols={{ base: 1, xs: 2 }} maw={560}>
          <NumberInput label="Coins expire after (days)" description="Empty: never." value={settings.coinExpiryDays ?? ''} placeholder="Never" readOnly />
          <NumberInput label="Tokens expire after (days)" description="Empty: never." value={settings.tokenExpiryDays ?? ''} placeholder="Never" readOnly />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {updated}
        </Text>
      </Stack>
    );
  }
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate aria-label="Expiry settings">
      <Stack gap="xs" align="flex-start">
        <SimpleGrid cols={{ base: 1, xs: 2 }} maw={560} w="100%">
          <NumberInput label="Coins expire after (days)" description={`${MIN_EXPIRY_DAYS} to ${MAX_EXPIRY_DAYS}; empty: never.`} {...DAYS} {...form.getInputProps('coinExpiryDays')} />
          <NumberInput label="Tokens expire after (days)" description={`${MIN_EXPIRY_DAYS} to ${MAX_EXPIRY_DAYS}; empty: never.`} {...DAYS} {...form.getInputProps('tokenExpiryDays')} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {updated}
        </Text>
        <Button type="submit" variant="light" loading={save.isPending}>
          Save expiry
        </Button>
      </Stack>
    </form>
  );
}

/** The engine's own settings (GET /incentives/settings): for now, when credited coins and tokens expire. */
export function EngineSettings() {
  const api = useApi();
  const appId = useAppId();
  const settings = useQuery({
    queryKey: ['app', appId, 'incentive-settings'],
    // Never set: both null (200, never 404).
    queryFn: () => ok(api.GET('/api/v1/incentives/settings')).then((d) => d.settings),
  });
  return (
    <Paper withBorder p="md" radius="md" mb="md" component="section" aria-labelledby="engine-settings-heading">
      <Title order={2} size="h4" id="engine-settings-heading">
        Engine settings
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Coins and tokens credited from now on expire that many days after the day they were earned, at the end of that UTC day; spending takes the soonest to expire
        first. A change applies to credits from then on: earlier ones keep their expiry.
      </Text>
      <QueryView query={settings} skeleton={<TableSkeleton rows={1} label="Loading the engine settings" />}>
        {(s) => <ExpirySetting settings={s} />}
      </QueryView>
    </Paper>
  );
}
