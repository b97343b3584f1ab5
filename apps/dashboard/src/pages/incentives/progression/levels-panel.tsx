import { Button, Group, NumberInput, Select, SimpleGrid, Stack, TagsInput, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { IncentiveLevel } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { DataTable } from '../../../ui/data-table';
import { EditorModal, useEditor } from '../../../ui/editor';
import { formatNumber } from '../../../ui/format';
import { Empty, QueryView } from '../../../ui/query-state';
import { RowActions } from '../../../ui/row-actions';
import { useChange } from '../../../ui/use-change';
import { UserLink } from '../../../ui/user-link';
import { useSearchState } from '../../../url/search-state';
import { WHOLE_AMOUNT } from '../cost-fields';
import { requiredName } from '../definition-key';
import { NEW_LEVEL, createLevelRequest, levelFormValues, rewardFieldOf, rewardsText, updateLevelRequest, type LevelFormValues } from './progression-request';
import { ReachedDrawer } from './reached-drawer';

const KEYS = ['edit', 'holders'] as const;
/** The whole ladder on one page: the API allows 100 levels a page, more than a ladder needs. */
const LADDER_LIMIT = 100;

export function useLadder() {
  const api = useApi();
  const appId = useAppId();
  return useQuery({
    queryKey: ['app', appId, 'progression', 'levels'],
    queryFn: () => ok(api.GET('/api/v1/incentives/levels', { params: { query: { limit: LADDER_LIMIT } } })),
  });
}

function LevelEditor({ editing, onClose, badgeOptions }: { editing: string | null; onClose: () => void; badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['progression', 'level'],
    // The API reads levels as a ladder; one level is found in it.
    load: (level) =>
      ok(api.GET('/api/v1/incentives/levels', { params: { query: { limit: LADDER_LIMIT } } })).then((d) => {
        const found = d.levels.find((l) => String(l.level) === level);
        if (!found) throw new Error(`The app has no level ${level}.`);
        return found;
      }),
    valuesOf: levelFormValues,
    empty: NEW_LEVEL,
    validate: { name: requiredName('level'), level: (v: number | string) => (editing !== 'new' || (Number(v) >= 1 && Number(v) <= 10_000) ? null : 'A level from 1 to 10000') },
    create: (values: LevelFormValues) => ok(api.POST('/api/v1/incentives/levels', { body: createLevelRequest(values) })).then((d) => d.level),
    update: (level, values) => ok(api.PATCH('/api/v1/incentives/levels/{level}', { params: { path: { level: Number(level) } }, body: updateLevelRequest(values) })).then((d) => d.level),
    invalidates: [['progression']],
    saved: (level, isNew) => `Level ${level.level} “${level.name}” ${isNew ? 'added' : 'saved'}.`,
    fieldOf: rewardFieldOf,
  });
  const { form, isNew } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="level">
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput label="Level" required disabled={!isNew} {...WHOLE_AMOUNT} min={1} max={10_000} {...form.getInputProps('level')} />
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      </SimpleGrid>
      <NumberInput label="XP threshold" description="A user reaches the level when their XP gets here; thresholds rise with the level." required {...WHOLE_AMOUNT} {...form.getInputProps('xpThreshold')} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput label="Coins on reaching it" {...WHOLE_AMOUNT} {...form.getInputProps('coins')} />
        <Select label="Badge on reaching it" placeholder="No badge" clearable searchable data={badgeOptions} comboboxProps={{ withinPortal: false }} {...form.getInputProps('badgeKey')} />
      </SimpleGrid>
      <TagsInput label="Perks" description="Free-form names; press Enter after each." comboboxProps={{ withinPortal: false }} {...form.getInputProps('perks')} />
    </EditorModal>
  );
}

/** The ladder of levels: define, edit and delete levels (a removed level keeps what it gave). */
export function LevelsPanel({ badgeOptions }: { badgeOptions: Array<{ value: string; label: string }> }) {
  const api = useApi();
  const { values, set } = useSearchState(KEYS);
  const ladder = useLadder();
  const remove = useChange({
    mutationFn: (level: IncentiveLevel) => ok(api.DELETE('/api/v1/incentives/levels/{level}', { params: { path: { level: level.level } } })),
    invalidates: [['progression']],
    success: (_r, level) => `Level ${level.level} removed. Users keep what it gave them.`,
  });
  return (
    <Stack>
      <Group justify="flex-end">
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New level</Button>
        </RoleGate>
      </Group>
      <QueryView query={ladder} isEmpty={(d) => d.levels.length === 0} empty={<Empty title="No levels yet" description="Levels turn XP into ranks, each with its rewards." />}>
        {(d) => (
          <DataTable
            label="Levels"
            rows={d.levels}
            rowKey={(l) => String(l.level)}
            minWidth={720}
            columns={[
              { label: 'Level', cell: (l) => l.level },
              { label: 'Name', cell: (l) => l.name },
              { label: 'XP threshold', cell: (l) => formatNumber(l.xpThreshold) },
              { label: 'Rewards', cell: (l) => rewardsText(l.rewards) },
              {
                label: 'Users',
                cell: (l) => (
                  <Button size="compact-sm" variant="subtle" onClick={() => set({ holders: String(l.level) })} aria-label={`Users at level ${l.level}`}>
                    Users
                  </Button>
                ),
              },
              {
                label: 'Actions',
                hiddenLabel: true,
                cell: (l) => (
                  <RowActions
                    subject={`level ${l.level}`}
                    onEdit={() => set({ edit: String(l.level) })}
                    remove={{
                      verb: 'Delete',
                      title: `Delete level ${l.level} “${l.name}”?`,
                      message: 'Users who reached it keep what it gave; nobody reaches it from now on.',
                      confirmLabel: 'Delete level',
                      loading: remove.isPending,
                      onConfirm: () => remove.mutateAsync(l),
                    }}
                  />
                ),
              },
            ]}
          />
        )}
      </QueryView>
      <ReachedDrawer
        subject={values.holders}
        title={`Users at level ${values.holders ?? ''}`}
        noun="users"
        queryKey={['progression', 'level-users']}
        load={(level, p) =>
          ok(api.GET('/api/v1/incentives/balances', { params: { query: { level: Number(level), sort: 'xp', page: p, limit: 25 } } })).then((d) => ({ rows: d.balances, pagination: d.pagination }))
        }
        rowKey={(b) => b.userId}
        columns={[
          { label: 'User', cell: (b) => <UserLink userId={b.userId} /> },
          { label: 'XP', cell: (b) => formatNumber(b.xp) },
          { label: 'Coins', cell: (b) => formatNumber(b.coins) },
        ]}
      />
      <RoleGate least="MANAGER">
        <LevelEditor editing={values.edit} onClose={() => set({ edit: null })} badgeOptions={badgeOptions} />
      </RoleGate>
    </Stack>
  );
}
