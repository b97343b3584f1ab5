import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { MilestoneDefinition } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { DataTable } from '../../../ui/data-table';
import { EditorModal, useEditor } from '../../../ui/editor';
import { formatDateTime } from '../../../ui/format';
import { Empty, QueryView } from '../../../ui/query-state';
import { RowActions } from '../../../ui/row-actions';
import { UrlPagination } from '../../../ui/url-pagination';
import { useChange } from '../../../ui/use-change';
import { UserLink } from '../../../ui/user-link';
import { useSearchState } from '../../../url/search-state';
import { GrantFields, WHOLE_AMOUNT } from '../cost-fields';
import { definitionKeyRule, requiredName } from '../definition-key';
import {
  METRICS,
  NEW_MILESTONE,
  createMilestoneRequest,
  milestoneCondition,
  milestoneFormValues,
  rewardFieldOf,
  rewardsText,
  streakKeyRule,
  updateMilestoneRequest,
  type MilestoneFormValues,
} from './progression-request';
import { ReachedDrawer } from './reached-drawer';
import { useStreakOptions } from './use-streak-options';

const KEYS = ['edit', 'holders'] as const;

function MilestoneEditor({ editing, onClose, badgeOptions }: { editing: string | null; onClose: () => void; badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const streaks = useStreakOptions(editing !== null);
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['progression', 'milestone'],
    load: (key) => ok(api.GET('/api/v1/incentives/milestones/definitions/{key}', { params: { path: { key } } })).then((d) => d.milestone),
    valuesOf: milestoneFormValues,
    empty: NEW_MILESTONE,
    validate: { key: definitionKeyRule(editing === 'new'), name: requiredName('milestone'), streakKey: streakKeyRule },
    create: (values: MilestoneFormValues) => ok(api.POST('/api/v1/incentives/milestones/definitions', { body: createMilestoneRequest(values) })).then((d) => d.milestone),
    update: (key, values) =>
      ok(api.PATCH('/api/v1/incentives/milestones/definitions/{key}', { params: { path: { key } }, body: updateMilestoneRequest(values) })).then((d) => d.milestone),
    invalidates: [['progression']],
    saved: (m, isNew) => `Milestone “${m.name}” ${isNew ? 'created' : 'saved'}.`,
    fieldOf: rewardFieldOf,
  });
  const { form, isNew } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="milestone">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Key" required disabled={!isNew} {...form.getInputProps('key')} />
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      </SimpleGrid>
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select
          label="Metric"
          data={METRICS.map((m) => ({ value: m.value, label: `${m.label}: ${m.description}` }))}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('metric')}
        />
        <NumberInput label="Threshold" description="Reached once, when the metric gets here." required {...WHOLE_AMOUNT} {...form.getInputProps('threshold')} />
      </SimpleGrid>
      {form.getValues().metric === 'STREAK' && (
        <Select
          label="Streak"
          description="The milestone is reached when the user's longest streak of it gets to the threshold."
          placeholder={streaks.data?.length === 0 ? 'No streak defined yet' : 'Choose a streak'}
          required
          searchable
          data={streaks.data ?? []}
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('streakKey')}
        />
      )}
      <GrantFields form={form} />
      <Select label="Badge" placeholder="No badge" clearable searchable data={badgeOptions} comboboxProps={{ withinPortal: false }} {...form.getInputProps('badgeKey')} />
    </EditorModal>
  );
}

/** Milestones: a metric reaching a threshold, once per user, with its rewards. */
export function MilestonesPanel({ badgeOptions }: { badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const milestones = useQuery({
    queryKey: ['app', appId, 'progression', 'milestones', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/milestones/definitions', { params: { query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useChange({
    mutationFn: (m: MilestoneDefinition) => ok(api.DELETE('/api/v1/incentives/milestones/definitions/{key}', { params: { path: { key: m.key } } })),
    invalidates: [['progression']],
    success: (_r, m) => `Milestone “${m.name}” deleted. Users keep what it gave them.`,
  });
  return (
    <Stack>
      <Group justify="flex-end">
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New milestone</Button>
        </RoleGate>
      </Group>
      <QueryView query={milestones} isEmpty={(d) => d.milestones.length === 0} empty={<Empty title="No milestones yet" description="A milestone rewards a user once, when a metric of theirs reaches a threshold." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Milestones"
              rows={d.milestones}
              rowKey={(m) => m.key}
              minWidth={720}
              columns={[
                {
                  label: 'Milestone',
                  cell: (m) => (
                    <>
                      <Text size="sm" fw={500}>
                        {m.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {m.key}
                      </Text>
                    </>
                  ),
                },
                { label: 'When', cell: (m) => milestoneCondition(m) },
                { label: 'Rewards', cell: (m) => rewardsText(m.rewards) },
                {
                  label: 'Reached by',
                  cell: (m) => (
                    <Button size="compact-sm" variant="subtle" onClick={() => set({ holders: m.key })} aria-label={`Who reached ${m.name}`}>
                      Users
                    </Button>
                  ),
                },
                {
                  label: 'Actions',
                  hiddenLabel: true,
                  cell: (m) => (
                    <RowActions
                      subject={m.name}
                      onEdit={() => set({ edit: m.key })}
                      remove={{
                        verb: 'Delete',
                        title: `Delete milestone “${m.name}”?`,
                        message: 'Users who reached it keep what it gave; nobody reaches it from now on.',
                        confirmLabel: 'Delete milestone',
                        loading: remove.isPending,
                        onConfirm: () => remove.mutateAsync(m),
                      }}
                    />
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="milestones" />
          </Stack>
        )}
      </QueryView>
      <ReachedDrawer
        subject={values.holders}
        title={`Who reached ${values.holders ?? ''}`}
        noun="users"
        queryKey={['progression', 'milestone-reached']}
        load={(key, p) => ok(api.GET('/api/v1/incentives/milestones', { params: { query: { key, page: p, limit: 25 } } })).then((d) => ({ rows: d.milestones, pagination: d.pagination }))}
        rowKey={(r) => r.userId}
        columns={[
          { label: 'User', cell: (r) => <UserLink userId={r.userId} /> },
          { label: 'Reached', cell: (r) => formatDateTime(r.reachedAt) },
        ]}
      />
      <RoleGate least="MANAGER">
        <MilestoneEditor editing={values.edit} onClose={() => set({ edit: null })} badgeOptions={badgeOptions} />
      </RoleGate>
    </Stack>
  );
}
