import { NumberInput, Select, SimpleGrid, Switch, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ok } from '../../../api/api-error';
import { useApi, useAppId } from '../../../api/use-api';
import { FormModal } from '../../../ui/form-modal';
import { QueryView, TableSkeleton } from '../../../ui/query-state';
import { useChange } from '../../../ui/use-change';
import { ACTION_TYPES, NEW_ACTION, actionFormValues, createActionRequest, updateActionRequest, type ActionFormValues } from './action-request';

const AMOUNT = { min: 0, max: 1_000_000_000, allowDecimal: false, allowNegative: false, thousandSeparator: ',' } as const;

/** Defines a new action (`editing` = null) or edits one; the key is set once. */
export function ActionFormModal({ editing, onClose }: { editing: string | 'new' | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const isNew = editing === 'new';
  const form = useForm<ActionFormValues>({
    initialValues: NEW_ACTION,
    validate: {
      key: (v) => (isNew && !/^[A-Za-z0-9_.:-]{1,100}$/.test(v.trim()) ? 'Letters, digits and _ . : - (up to 100)' : null),
      name: (v) => (v.trim() ? null : 'Give the action a name'),
    },
  });
  const action = useQuery({
    queryKey: ['app', appId, 'actions', 'one', editing],
    queryFn: () => ok(api.GET('/api/v1/incentives/actions/{key}', { params: { path: { key: editing! } } })).then((d) => d.action),
    enabled: editing !== null && !isNew,
  });
  useEffect(() => {
    form.setValues(isNew || !action.data ? NEW_ACTION : actionFormValues(action.data));
    form.resetDirty();
    // Filled once per action read, or emptied for a new one (form is stable).
  }, [action.data, isNew]);
  const save = useChange({
    mutationFn: (values: ActionFormValues) =>
      isNew
        ? ok(api.POST('/api/v1/incentives/actions', { body: createActionRequest(values) })).then((d) => d.action)
        : ok(api.PATCH('/api/v1/incentives/actions/{key}', { params: { path: { key: editing! } }, body: updateActionRequest(values) })).then((d) => d.action),
    invalidates: [['actions']],
    success: (saved) => (isNew ? `Action “${saved.name}” created.` : `Action “${saved.name}” saved.`),
    form,
    onSuccess: onClose,
  });
  const fields = (
    <>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Key" description="Events name the action by it; it never changes." required disabled={!isNew} {...form.getInputProps('key')} />
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      </SimpleGrid>
      <Select
        label="Type"
        data={ACTION_TYPES.map((t) => ({ value: t.value, label: `${t.label}: ${t.description}` }))}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        {...form.getInputProps('type')}
      />
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <NumberInput label="Coins" {...AMOUNT} {...form.getInputProps('coins')} />
        <NumberInput label="XP" {...AMOUNT} {...form.getInputProps('xp')} />
        <NumberInput label="Tokens" {...AMOUNT} {...form.getInputProps('tokens')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput label="Cooldown (seconds)" description="After a rewarded event, further events earn nothing for this long; 0: none." {...AMOUNT} {...form.getInputProps('cooldown')} />
        <NumberInput label="Max repeats" description="Rewarded events per user; empty: unlimited." min={1} allowDecimal={false} allowNegative={false} {...form.getInputProps('maxRepeats')} />
      </SimpleGrid>
      <Switch label="Enabled (a disabled action records events but rewards nothing)" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
    </>
  );
  return (
    <FormModal
      opened={editing !== null}
      onClose={onClose}
      title={isNew ? 'New action' : 'Edit action'}
      form={form}
      onSubmit={(v) => save.mutate(v)}
      submitLabel={isNew ? 'Create action' : 'Save action'}
      submitting={save.isPending}
    >
      {isNew ? fields : <QueryView query={action} skeleton={<TableSkeleton rows={6} label="Loading the action" />}>{() => fields}</QueryView>}
    </FormModal>
  );
}
