import { NumberInput, Select, SimpleGrid, Switch, TextInput, Textarea } from '@mantine/core';
import { ok } from '../../../api/api-error';
import { useApi } from '../../../api/use-api';
import { EditorModal, useEditor, type Editing } from '../../../ui/editor';
import { GrantFields, WHOLE_AMOUNT } from '../cost-fields';
import { definitionKeyRule, requiredName } from '../definition-key';
import { ACTION_TYPES, MAX_PENDING_DAYS, NEW_ACTION, actionFormValues, createActionRequest, pendingDaysRule, updateActionRequest, type ActionFormValues } from './action-request';

/** Defines a new action (`?edit=new`) or edits one (`?edit=<key>`); the key is set once. */
export function ActionFormModal({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const api = useApi();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['actions', 'one'],
    load: (key) => ok(api.GET('/api/v1/incentives/actions/{key}', { params: { path: { key } } })).then((d) => d.action),
    valuesOf: actionFormValues,
    empty: NEW_ACTION,
    validate: {
      key: definitionKeyRule(editing === 'new'),
      name: requiredName('action'),
      pendingDays: pendingDaysRule,
    },
    create: (values: ActionFormValues) => ok(api.POST('/api/v1/incentives/actions', { body: createActionRequest(values) })).then((d) => d.action),
    update: (key, values) => ok(api.PATCH('/api/v1/incentives/actions/{key}', { params: { path: { key } }, body: updateActionRequest(values) })).then((d) => d.action),
    invalidates: [['actions']],
    saved: (saved, isNew) => `Action “${saved.name}” ${isNew ? 'created' : 'saved'}.`,
  });
  const { form, isNew } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="action">
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
      <GrantFields form={form} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput label="Cooldown (seconds)" description="After a rewarded event, further events earn nothing for this long; 0: none." {...WHOLE_AMOUNT} {...form.getInputProps('cooldown')} />
        <NumberInput label="Max repeats" description="Rewarded events per user; empty: unlimited." min={1} allowDecimal={false} allowNegative={false} {...form.getInputProps('maxRepeats')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <NumberInput
          label="Pending days"
          description={`Its coins and tokens wait this many days before they can be spent, unless the event is reversed; 0: at once (at most ${MAX_PENDING_DAYS}).`}
          min={0}
          max={MAX_PENDING_DAYS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          {...form.getInputProps('pendingDays')}
        />
      </SimpleGrid>
      <Switch label="Enabled (a disabled action records events but rewards nothing)" {...form.getInputProps('enabled', { type: 'checkbox' })} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
    </EditorModal>
  );
}
