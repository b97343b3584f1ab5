import { Alert, Button, Group, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, errorMessage, ok } from '../../../api/api-error';
import { useOperationKey } from '../../../api/operation-key';
import type { Boost, BoostState } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { DataTable } from '../../../ui/data-table';
import { DateTimeInput } from '../../../ui/date-time-input';
import { FormModal } from '../../../ui/form-modal';
import { PageHeader } from '../../../ui/page-header';
import { Empty, QueryView } from '../../../ui/query-state';
import { RowActions } from '../../../ui/row-actions';
import { StatusBadge } from '../../../ui/status-badge';
import { UrlPagination } from '../../../ui/url-pagination';
import { useChange } from '../../../ui/use-change';
import { useSearchState } from '../../../url/search-state';
import { requiredName } from '../definition-key';
import { useActionOptions } from '../actions/use-action-options';
import {
  BOOST_STATES,
  MAX_BOOST_DAYS,
  MAX_MULTIPLIER,
  NEW_BOOST,
  createBoostRequest,
  endsAtRule,
  multiplierRule,
  multiplierText,
  scopeText,
  startsAtRule,
  windowText,
  type BoostFormValues,
} from './boost-request';

const KEYS = ['state', 'edit'] as const;

/** Schedules a boost (`?edit=new`): a boost is never edited, only deleted before it starts. */
function BoostFormModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const api = useApi();
  const actions = useActionOptions();
  // A retry of the same boost (after a failure without an answer) sends the same Idempotency-Key: it is created once.
  const operation = useOperationKey();
  const form = useForm<BoostFormValues>({
    initialValues: NEW_BOOST,
    validate: { name: requiredName('boost'), multiplier: multiplierRule, startsAt: startsAtRule, endsAt: (v, values) => endsAtRule(v, values) },
  });
  const create = useChange({
    mutationFn: (values: BoostFormValues) => {
      const body = createBoostRequest(values);
      return ok(api.POST('/api/v1/incentives/boosts', { params: { header: { 'Idempotency-Key': operation.keyFor(body) } }, body })).then((d) => d.boost);
    },
    invalidates: [['boosts']],
    success: (boost) => `Boost “${boost.name}” scheduled.`,
    form,
    refusalsShownInForm: true,
    onSuccess: () => {
      operation.done();
      form.reset();
      onClose();
    },
    onError: (err) => {
      operation.failed(err);
      // The window refused (422 INVALID_RANGE) is about the end (`details.field`); said under it.
      if (err instanceof ApiError && err.code === 'INVALID_RANGE') form.setFieldError('endsAt', err.message);
    },
  });
  // A refusal without fields (422 TOO_MANY_BOOSTS, 403) is said above the form.
  const refusal = create.error instanceof ApiError && create.error.issues.length === 0 && create.error.code !== 'INVALID_RANGE' ? create.error : null;
  const values = form.getValues();
  const close = () => {
    create.reset();
    onClose();
  };
  return (
    <FormModal opened={opened} onClose={close} title="New boost" form={form} onSubmit={(v) => create.mutate(v)} submitLabel="Create boost" submitting={create.isPending}>
      <Text size="sm" c="dimmed">
        Events inside the window earn their coins and XP times the multiplier, rounded down; tokens are not multiplied. Boosts do not add up: an event under several earns under the
        largest.
      </Text>
      {refusal && (
        <Alert color="red" role="alert" title="Not scheduled">
          {errorMessage(refusal)}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Name" required maxLength={200} data-autofocus {...form.getInputProps('name')} />
        <NumberInput
          label="Multiplier"
          description={`More than 1, at most ${MAX_MULTIPLIER}, 2 decimals at most.`}
          required
          min={1.01}
          max={MAX_MULTIPLIER}
          step={0.5}
          decimalScale={2}
          clampBehavior="none"
          allowNegative={false}
          leftSection="×"
          {...form.getInputProps('multiplier')}
        />
      </SimpleGrid>
      <MultiSelect
        label="Actions"
        description="Only events of these actions; none chosen: every action."
        placeholder={values.actionKeys.length === 0 ? 'Every action' : undefined}
        data={actions.data ?? []}
        searchable
        clearable
        clearButtonProps={{ 'aria-label': 'Clear the actions' }}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('actionKeys')}
      />
      <TagsInput
        label="User ids"
        description="Only events of these users; none: every user. Press Enter after each."
        placeholder={values.userIds.length === 0 ? 'Every user' : undefined}
        maxTags={1000}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('userIds')}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <DateTimeInput
          label="Starts at"
          description="Your time. It may be past: events already recorded are not rewarded again."
          pickLabel="Pick the start day"
          required
          {...form.getInputProps('startsAt')}
        />
        <DateTimeInput
          label="Ends at"
          description={`Your time: in the future, at most ${MAX_BOOST_DAYS} days after the start (exclusive).`}
          pickLabel="Pick the end day"
          required
          {...form.getInputProps('endsAt')}
        />
      </SimpleGrid>
    </FormModal>
  );
}

/** Boosts: time-boxed multipliers of what events earn, for some actions and users or all. */
export function BoostsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const state = BOOST_STATES.find((s) => s.value === values.state)?.value;
  const boosts = useQuery({
    queryKey: ['app', appId, 'boosts', 'list', state, page],
    queryFn: () => ok(api.GET('/api/v1/incentives/boosts', { params: { query: { page, limit: 25, ...(state ? { state } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useChange({
    mutationFn: (b: Boost) => ok(api.DELETE('/api/v1/incentives/boosts/{boostId}', { params: { path: { boostId: b.id } } })),
    invalidates: [['boosts']],
    success: (_r, b) => `Boost “${b.name}” deleted.`,
  });
  return (
    <>
      <PageHeader
        title="Boosts"
        description="Time-boxed multipliers of the coins and XP events earn: for every action and user, or some."
        actions={
          <RoleGate least="MANAGER">
            <Button onClick={() => set({ edit: 'new' })}>New boost</Button>
          </RoleGate>
        }
      />
      <Group mb="md" wrap="wrap">
        <Select
          label="State"
          placeholder="Any state"
          clearable
          data={BOOST_STATES}
          value={state ?? null}
          onChange={(v) => set({ state: v as BoostState | null })}
          w={{ base: '100%', xs: 200 }}
        />
      </Group>
      <QueryView
        query={boosts}
        isEmpty={(d) => d.boosts.length === 0}
        empty={<Empty title={state ? 'No boost in this state' : 'No boosts yet'} description="A boost multiplies what events earn during a window: a double-XP weekend, a launch week." />}
      >
        {(d) => (
          <Stack>
            <DataTable
              label="Boosts"
              rows={d.boosts}
              rowKey={(b) => b.id}
              minWidth={900}
              columns={[
                {
                  label: 'Boost',
                  cell: (b) => (
                    <>
                      <Text size="sm" fw={500}>
                        {b.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {b.id}
                      </Text>
                    </>
                  ),
                },
                { label: 'State', cell: (b) => <StatusBadge status={b.state} /> },
                { label: 'Window', cell: (b) => windowText(b) },
                { label: 'Multiplier', cell: (b) => multiplierText(b.multiplier) },
                { label: 'Scope', cell: (b) => scopeText(b) },
                {
                  label: 'Changes',
                  hiddenLabel: true,
                  cell: (b) =>
                    // Only before it starts: once started, events may have earned under it (422 BOOST_STARTED).
                    b.state === 'SCHEDULED' && (
                      <RowActions
                        subject={b.name}
                        remove={{
                          verb: 'Delete',
                          title: `Delete boost “${b.name}”?`,
                          message: 'It has not started: no event has earned under it. Deleting it cancels it.',
                          confirmLabel: 'Delete boost',
                          loading: remove.isPending,
                          onConfirm: () => remove.mutateAsync(b),
                        }}
                      />
                    ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="boosts" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <BoostFormModal opened={values.edit === 'new'} onClose={() => set({ edit: null })} />
      </RoleGate>
    </>
  );
}
