import { Button, Fieldset, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { StreakDefinition } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { DataTable } from '../../../ui/data-table';
import { EditorModal, useEditor } from '../../../ui/editor';
import { Empty, QueryView } from '../../../ui/query-state';
import { RowActions } from '../../../ui/row-actions';
import { UrlPagination } from '../../../ui/url-pagination';
import { useChange } from '../../../ui/use-change';
import { useSearchState } from '../../../url/search-state';
import { useActionOptions } from '../actions/use-action-options';
import { WHOLE_AMOUNT } from '../cost-fields';
import { definitionKeyRule, requiredName } from '../definition-key';
import {
  NEW_STREAK,
  NEW_STREAK_REWARD,
  STREAK_PERIODS,
  actionsText,
  createStreakRequest,
  freezesRule,
  periodLabel,
  rewardLengthRule,
  streakFormValues,
  streakRewardsText,
  updateStreakRequest,
  type StreakFormValues,
} from './streak-request';

const KEYS = ['edit'] as const;
/** The API takes at most 50 rewards per streak. */
const MAX_REWARDS = 50;

function StreakEditor({ editing, onClose, badgeOptions }: { editing: string | null; onClose: () => void; badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const actions = useActionOptions();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['progression', 'streak'],
    load: (key) => ok(api.GET('/api/v1/incentives/streaks/definitions/{key}', { params: { path: { key } } })).then((d) => d.streak),
    valuesOf: streakFormValues,
    empty: NEW_STREAK,
    validate: {
      key: definitionKeyRule(editing === 'new'),
      name: requiredName('streak'),
      freezesPerMonth: freezesRule,
      rewards: { length: rewardLengthRule },
    },
    create: (values: StreakFormValues) => ok(api.POST('/api/v1/incentives/streaks/definitions', { body: createStreakRequest(values) })).then((d) => d.streak),
    update: (key, values) =>
      ok(api.PATCH('/api/v1/incentives/streaks/definitions/{key}', { params: { path: { key } }, body: updateStreakRequest(values) })).then((d) => d.streak),
    invalidates: [['progression']],
    saved: (s, isNew) => `Streak “${s.name}” ${isNew ? 'created' : 'saved'}.`,
  });
  const { form, isNew } = editor;
  const values = form.getValues();
  const unit = values.period === 'WEEKLY' ? 'weeks' : 'days';
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="streak">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Key" description="Milestones name the streak by it; it never changes." required disabled={!isNew} {...form.getInputProps('key')} />
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select
          label="Period"
          description={isNew ? 'Fixed once the streak exists.' : "Fixed at creation: users' progress is counted in it."}
          data={STREAK_PERIODS.map((p) => ({ value: p.value, label: p.label }))}
          allowDeselect={false}
          readOnly={!isNew}
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('period')}
        />
        <NumberInput
          label="Freezes per month"
          description="Missed periods a user may have saved each calendar month (0 to 10)."
          min={0}
          max={10}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          {...form.getInputProps('freezesPerMonth')}
        />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {STREAK_PERIODS.find((p) => p.value === values.period)?.description}: the first event of a period that counts extends the streak; a period missed uses a freeze if one is left, else the
        streak ends.
      </Text>
      <MultiSelect
        label="Actions"
        description="Events of these actions extend it; none chosen: any action."
        placeholder={values.actionKeys.length === 0 ? 'Any action' : undefined}
        data={actions.data ?? []}
        searchable
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the actions' }}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('actionKeys')}
      />
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          Rewards
        </Text>
        <Text size="xs" c="dimmed">
          Each is paid once per streak that reaches its length (again on a later streak that reaches it).
        </Text>
        {values.rewards.map((_r, index) => (
          <Fieldset key={form.key(`rewards.${index}`)} legend={`Reward ${index + 1}`}>
            <SimpleGrid cols={{ base: 1, xs: 4 }}>
              <NumberInput label="Length" description={`In ${unit}`} required min={1} max={3650} clampBehavior="none" allowDecimal={false} allowNegative={false} {...form.getInputProps(`rewards.${index}.length`)} />
              <NumberInput label="Coins" {...WHOLE_AMOUNT} {...form.getInputProps(`rewards.${index}.coins`)} />
              <NumberInput label="XP" {...WHOLE_AMOUNT} {...form.getInputProps(`rewards.${index}.xp`)} />
              <NumberInput label="Tokens" {...WHOLE_AMOUNT} {...form.getInputProps(`rewards.${index}.tokens`)} />
            </SimpleGrid>
            <Group align="flex-end" mt="xs" wrap="wrap">
              <Select
                label="Badge"
                placeholder="No badge"
                clearable
                searchable
                data={badgeOptions}
                comboboxProps={{ withinPortal: false }}
                style={{ flex: 1 }}
                {...form.getInputProps(`rewards.${index}.badgeKey`)}
              />
              <Button variant="subtle" color="red" onClick={() => form.removeListItem('rewards', index)} aria-label={`Remove reward ${index + 1}`}>
                Remove
              </Button>
            </Group>
          </Fieldset>
        ))}
        {values.rewards.length < MAX_REWARDS && (
          <Group>
            <Button variant="light" onClick={() => form.insertListItem('rewards', { ...NEW_STREAK_REWARD })}>
              Add reward
            </Button>
          </Group>
        )}
      </Stack>
    </EditorModal>
  );
}

/** Streaks: periods in a row (days or weeks) with an event that counts, with freezes and rewards by length. */
export function StreaksPanel({ badgeOptions }: { badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const streaks = useQuery({
    queryKey: ['app', appId, 'progression', 'streaks', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/streaks/definitions', { params: { query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useChange({
    mutationFn: (s: StreakDefinition) => ok(api.DELETE('/api/v1/incentives/streaks/definitions/{key}', { params: { path: { key: s.key } } })),
    invalidates: [['progression']],
    success: (_r, s) => `Streak “${s.name}” deleted. Users keep what its rewards paid.`,
  });
  return (
    <Stack>
      <Group justify="flex-end">
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New streak</Button>
        </RoleGate>
      </Group>
      <QueryView
        query={streaks}
        isEmpty={(d) => d.streaks.length === 0}
        empty={<Empty title="No streaks yet" description="A streak counts the days or weeks in a row a user did something, and rewards the lengths it reaches." />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Streaks"
              rows={d.streaks}
              rowKey={(s) => s.key}
              minWidth={820}
              columns={[
                {
                  label: 'Streak',
                  cell: (s) => (
                    <>
                      <Text size="sm" fw={500}>
                        {s.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {s.key}
                      </Text>
                    </>
                  ),
                },
                { label: 'Period', cell: (s) => periodLabel(s.period) },
                { label: 'Actions', cell: (s) => actionsText(s.actionKeys) },
                { label: 'Freezes per month', cell: (s) => s.freezesPerMonth },
                { label: 'Rewards', cell: (s) => streakRewardsText(s) },
                {
                  label: 'Changes',
                  hiddenLabel: true,
                  cell: (s) => (
                    <RowActions
                      subject={s.name}
                      onEdit={() => set({ edit: s.key })}
                      remove={{
                        verb: 'Delete',
                        title: `Delete streak “${s.name}”?`,
                        message: 'Users’ streaks of it stop being kept; what its rewards paid stays.',
                        confirmLabel: 'Delete streak',
                        loading: remove.isPending,
                        onConfirm: () => remove.mutateAsync(s),
                      }}
                    />
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="streaks" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <StreakEditor editing={values.edit} onClose={() => set({ edit: null })} badgeOptions={badgeOptions} />
      </RoleGate>
    </Stack>
  );
}
