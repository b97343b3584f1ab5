import { Autocomplete, Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ok } from '../../api/api-error';
import type { IncentiveUserSettings, UserStreak } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { useAllows } from '../../session/session-context';
import { DataTable } from '../../ui/data-table';
import { formatDateTime, formatNumber } from '../../ui/format';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { useChange } from '../../ui/use-change';
import { lengthText, periodLabel } from '../incentives/progression/streak-request';

/** The IANA zones this browser knows (the API checks the name on its side), UTC first. */
export const TIME_ZONES: string[] = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((z) => z !== 'UTC')];

/** Whether `name` is an IANA time zone this browser can count in. */
export function isTimeZone(name: string): boolean {
  if (!name.trim()) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name.trim() });
    return true;
  } catch {
    return false;
  }
}

/** PUT /incentives/users/{userId}/settings. */
export function settingsRequest(values: { timeZone: string }): { timeZone: string } {
  return { timeZone: values.timeZone.trim() };
}

/** Where a streak stands this period, as badges: extended, at risk (running, not yet extended), or nothing. */
function PeriodState({ streak }: { streak: UserStreak }) {
  return (
    <Group gap={4}>
      {streak.extendedThisPeriod && (
        <Badge color="green" variant="light">
          extended this period
        </Badge>
      )}
      {streak.atRisk && (
        <Badge color="orange" variant="light">
          at risk
        </Badge>
      )}
      {!streak.extendedThisPeriod && !streak.atRisk && (
        <Text size="sm" c="dimmed">
          —
        </Text>
      )}
    </Group>
  );
}

/**
 * The user's time zone, which their streaks count days and weeks in (UTC
 * until set): shown to all, set by a MANAGER or OWNER.
 */
function TimeZoneSetting({ userId, settings }: { userId: string; settings: IncentiveUserSettings }) {
  const api = useApi();
  const canWrite = useAllows('MANAGER');
  const form = useForm({
    initialValues: { timeZone: settings.timeZone },
    validate: { timeZone: (v: string) => (isTimeZone(v) ? null : 'An IANA time zone name, such as Europe/Paris') },
  });
  useEffect(() => {
    form.setValues({ timeZone: settings.timeZone });
    form.resetDirty();
    // Filled again with each version read (form is this component's own).
  }, [settings.timeZone]);
  const save = useChange({
    mutationFn: (values: { timeZone: string }) => ok(api.PUT('/api/v1/incentives/users/{userId}/settings', { params: { path: { userId } }, body: settingsRequest(values) })),
    invalidates: [['user', userId]],
    success: (d) => `Time zone of ${userId} set to ${d.settings.timeZone}.`,
    form,
  });
  const description = settings.updatedAt ? `Set ${formatDateTime(settings.updatedAt)}. Streaks count days and weeks in it.` : 'UTC until set. Streaks count days and weeks in it.';
  if (!canWrite) {
    return <TextInput label="Time zone" description={description} value={settings.timeZone} readOnly w={{ base: '100%', xs: 320 }} />;
  }
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate aria-label="Time zone setting">
      <Stack gap="xs" align="flex-start">
        <Autocomplete
          label="Time zone"
          description={`${description} An event that names its own zone is counted in that one.`}
          placeholder="Europe/Paris"
          data={TIME_ZONES}
          limit={30}
          comboboxProps={{ withinPortal: false }}
          w={{ base: '100%', xs: 320 }}
          {...form.getInputProps('timeZone')}
        />
        <Button type="submit" variant="light" loading={save.isPending} disabled={!form.isDirty()}>
          Save time zone
        </Button>
      </Stack>
    </form>
  );
}

/** The user's streaks as of now (one per streak the app defines; length 0 where none runs), and the time zone they count in. */
export function UserStreaks({ userId }: { userId: string }) {
  const api = useApi();
  const appId = useAppId();
  const settings = useQuery({
    queryKey: ['app', appId, 'user', userId, 'settings'],
    // UTC until set (200, never 404).
    queryFn: () => ok(api.GET('/api/v1/incentives/users/{userId}/settings', { params: { path: { userId } } })).then((d) => d.settings),
  });
  const streaks = useQuery({
    queryKey: ['app', appId, 'user', userId, 'streaks'],
    queryFn: () => ok(api.GET('/api/v1/incentives/streaks/{userId}', { params: { path: { userId } } })),
  });
  return (
    <Stack>
      <QueryView query={settings} skeleton={<TableSkeleton rows={1} label="Loading the user's time zone" />}>
        {(s) => <TimeZoneSetting userId={userId} settings={s} />}
      </QueryView>
      <QueryView
        query={streaks}
        isEmpty={(d) => d.streaks.length === 0}
        empty={<Empty title="No streaks defined" description="The app defines no streak yet: see Levels & badges, Streaks." />}
      >
        {(d) => (
          <DataTable
            label="Streaks"
            rows={d.streaks}
            rowKey={(s) => s.key}
            minWidth={900}
            rowProps={() => ({ 'data-testid': 'streak-row' })}
            columns={[
              {
                label: 'Streak',
                cell: (s) => (
                  <>
                    <Text size="sm" fw={500}>
                      {s.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {s.key} · {periodLabel(s.period).toLowerCase()}
                    </Text>
                  </>
                ),
              },
              { label: 'Length', cell: (s) => (s.length > 0 ? lengthText(s.length, s.period) : 'not running') },
              { label: 'Longest', cell: (s) => lengthText(s.longest, s.period) },
              { label: 'This period', cell: (s) => <PeriodState streak={s} /> },
              { label: 'Freezes left', cell: (s) => formatNumber(s.freezesLeft) },
              { label: 'Time zone', cell: (s) => s.timeZone },
              { label: 'Last extended', cell: (s) => formatDateTime(s.lastExtendedAt) },
            ]}
          />
        )}
      </QueryView>
    </Stack>
  );
}
