import { Anchor, Button, Drawer, Group, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useMemo } from 'react';
import { Link } from 'react-router';
import { ok } from '../../../api/api-error';
import type { ActionType } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { BooleanFilter, booleanOf } from '../../../ui/boolean-filter';
import { DataTable } from '../../../ui/data-table';
import { Field } from '../../../ui/field';
import { formatAmounts, formatDateTime, formatSeconds } from '../../../ui/format';
import { PageHeader } from '../../../ui/page-header';
import { SegmentedField } from '../../../ui/segmented-field';
import { Empty, QueryView, TableSkeleton } from '../../../ui/query-state';
import { StateSwitch } from '../../../ui/state-switch';
import { UrlPagination } from '../../../ui/url-pagination';
import { useSearchState } from '../../../url/search-state';
import { PERIODS, periodOf, periodRange } from '../../overview/overview-figures';
import { ActionFormModal } from './action-form-modal';
import { ACTION_TYPES, actionTypeLabel, pendingText } from './action-request';
import { EngineSettings } from '../settings/engine-settings';

const KEYS = ['type', 'enabled', 'edit', 'action', 'days'] as const;
const DRAWER_KEYS = ['days'] as const;

// The chart library loads with the first action opened, not with the list.
const ActionActivity = lazy(() => import('./action-activity'));

/** One action: what it pays, its limits, and how often it was performed and what it paid over a period. */
function ActionDrawer({ actionKey, onClose }: { actionKey: string | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const { values, set } = useSearchState(DRAWER_KEYS);
  const days = periodOf(values.days);
  const range = useMemo(() => periodRange(days, new Date()), [days]);
  const action = useQuery({
    queryKey: ['app', appId, 'actions', 'one', actionKey],
    queryFn: () => ok(api.GET('/api/v1/incentives/actions/{key}', { params: { path: { key: actionKey! } } })).then((d) => d.action),
    enabled: actionKey !== null,
  });
  return (
    <Drawer opened={actionKey !== null} onClose={onClose} position="right" size="xl" title="Action">
      <QueryView query={action} skeleton={<TableSkeleton rows={6} label="Loading the action" />}>
        {(a) => (
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <Field label="Name">{a.name}</Field>
              <Field label="Key">{a.key}</Field>
              <Field label="Type">{actionTypeLabel(a.type)}</Field>
              <Field label="Earns">{formatAmounts(a)}</Field>
              <Field label="Cooldown">{formatSeconds(a.cooldown)}</Field>
              <Field label="Max repeats">{a.maxRepeats ?? 'unlimited'}</Field>
              <Field label="Pending">{pendingText(a.pendingDays) ?? 'none: available at once'}</Field>
              <Field label="State">{a.enabled ? 'enabled' : 'disabled'}</Field>
              <Field label="Updated">{formatDateTime(a.updatedAt)}</Field>
            </SimpleGrid>
            {a.description && <Text size="sm">{a.description}</Text>}
            <SegmentedField
              label="Activity over"
              value={String(days)}
              onChange={(v) => set({ days: v === '30' ? null : v })}
              data={PERIODS.map((d) => ({ value: String(d), label: `${d} days` }))}
            />
            <Suspense fallback={<Skeleton height={420} aria-label="Loading the chart" />}>
              <ActionActivity actionKey={a.key} range={range} />
            </Suspense>
            <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/events?actionKey=${encodeURIComponent(a.key)}`} size="sm">
              Events of this action
            </Anchor>
          </Stack>
        )}
      </QueryView>
    </Drawer>
  );
}

/** What users earn coins, XP and tokens for: define, edit, enable and disable; and the engine's settings (when credits expire). */
export function ActionsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const type = ACTION_TYPES.find((t) => t.value === values.type)?.value;
  const enabled = booleanOf(values.enabled);
  const actions = useQuery({
    queryKey: ['app', appId, 'actions', 'list', type, enabled, page],
    queryFn: () =>
      ok(api.GET('/api/v1/incentives/actions', { params: { query: { page, limit: 25, ...(type ? { type } : {}), ...(enabled !== undefined ? { enabled } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <PageHeader
        title="Actions"
        description="What users earn coins, XP and tokens for, and how often."
        actions={
          <RoleGate least="MANAGER">
            <Button onClick={() => set({ edit: 'new' })}>New action</Button>
          </RoleGate>
        }
      />
      <EngineSettings />
      <Group mb="md" wrap="wrap">
        <Select
          label="Type"
          placeholder="Any type"
          clearable
          data={ACTION_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          value={type ?? null}
          onChange={(v) => set({ type: v as ActionType | null })}
          w={{ base: '100%', xs: 220 }}
        />
        <BooleanFilter label="State" placeholder="Enabled or not" words={['Enabled', 'Disabled']} value={values.enabled} onChange={(v) => set({ enabled: v })} />
      </Group>
      <QueryView
        query={actions}
        isEmpty={(d) => d.actions.length === 0}
        empty={<Empty title={type || enabled !== undefined ? 'No action matches' : 'No actions yet'} description="An action says what an event earns: coins, XP and tokens." />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Actions"
              rows={d.actions}
              rowKey={(a) => a.key}
              minWidth={820}
              columns={[
                {
                  label: 'Action',
                  cell: (a) => (
                    <>
                      <Anchor component="button" type="button" onClick={() => set({ action: a.key })} aria-label={`Details of ${a.name}`}>
                        {a.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {a.key}
                      </Text>
                    </>
                  ),
                },
                { label: 'Type', cell: (a) => actionTypeLabel(a.type) },
                {
                  label: 'Earns',
                  cell: (a) => (
                    <>
                      <Text size="sm">{formatAmounts(a)}</Text>
                      {/* Only when its coins and tokens wait before they can be spent. */}
                      {a.pendingDays > 0 && (
                        <Text size="xs" c="dimmed">
                          {pendingText(a.pendingDays)}
                        </Text>
                      )}
                    </>
                  ),
                },
                { label: 'Cooldown', cell: (a) => formatSeconds(a.cooldown) },
                { label: 'Max repeats', cell: (a) => a.maxRepeats ?? 'unlimited' },
                {
                  label: 'State',
                  cell: (a) => (
                    <StateSwitch
                      subject={a.name}
                      on={a.enabled}
                      words={['enabled', 'disabled']}
                      ariaLabel={`${a.name} enabled`}
                      change={(enabled) => ok(api.PATCH('/api/v1/incentives/actions/{key}', { params: { path: { key: a.key } }, body: { enabled } }))}
                      invalidates={[['actions']]}
                    />
                  ),
                },
                {
                  label: 'Edit',
                  hiddenLabel: true,
                  cell: (a) => (
                    <RoleGate least="MANAGER">
                      <Button size="compact-sm" variant="light" onClick={() => set({ edit: a.key })} aria-label={`Edit ${a.name}`}>
                        Edit
                      </Button>
                    </RoleGate>
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="actions" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <ActionFormModal editing={values.edit} onClose={() => set({ edit: null })} />
      </RoleGate>
      <ActionDrawer actionKey={values.action} onClose={() => set({ action: null, days: null })} />
    </>
  );
}
