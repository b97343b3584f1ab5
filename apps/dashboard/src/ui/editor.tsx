import { useForm, type FormValidateInput } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useAppId } from '../api/use-api';
import { FormModal } from './form-modal';
import { QueryView, TableSkeleton } from './query-state';
import { useChange } from './use-change';

/** What `?edit=` names: `new`, the id of what is edited, or nothing (closed). */
export type Editing = string | null;

export interface EditorOptions<T, V extends object, R> {
  editing: Editing;
  /** What is edited, under the app's query keys (e.g. `['catalog', 'item']`). */
  queryKey: readonly string[];
  load: (id: string) => Promise<T>;
  valuesOf: (current: T) => V;
  empty: V;
  validate?: FormValidateInput<V>;
  create: (values: V) => Promise<R>;
  update: (id: string, values: V) => Promise<R>;
  /** The app's queries to read again after a save. */
  invalidates: ReadonlyArray<readonly string[]>;
  saved: (result: R, isNew: boolean) => string;
  fieldOf?: (apiField: string) => string;
  onClose: () => void;
}

/**
 * A create-or-edit form opened from the URL (`?edit=new` or `?edit=<id>`):
 * what is edited is read, the form filled from it, and saving creates or
 * updates it with the API's field errors on their fields.
 */
export function useEditor<T, V extends object, R>(options: EditorOptions<T, V, R>) {
  const appId = useAppId();
  const { editing } = options;
  const isNew = editing === 'new';
  const form = useForm<V>({ initialValues: options.empty, validate: options.validate });
  const current = useQuery({
    queryKey: ['app', appId, ...options.queryKey, editing],
    queryFn: () => options.load(editing!),
    enabled: editing !== null && !isNew,
  });
  useEffect(() => {
    form.setValues(isNew || !current.data ? options.empty : options.valuesOf(current.data));
    form.resetDirty();
    // Filled once per version read, or emptied for a new one (form and options are the page's own).
  }, [current.data, isNew]);
  const save = useChange({
    mutationFn: (values: V) => (isNew ? options.create(values) : options.update(editing!, values)),
    invalidates: options.invalidates,
    success: (result) => options.saved(result, isNew),
    form,
    fieldOf: options.fieldOf,
    onSuccess: options.onClose,
  });
  return { form, isNew, current, save };
}

/** The dialog of an editor: its fields once what is edited has been read. */
export function EditorModal<T, V extends object, R>({
  editor,
  editing,
  onClose,
  noun,
  children,
}: {
  editor: ReturnType<typeof useEditor<T, V, R>>;
  editing: Editing;
  onClose: () => void;
  /** What is edited, for the title and button (`action` → “New action”, “Save action”). */
  noun: string;
  children: ReactNode;
}) {
  const { form, isNew, current, save } = editor;
  return (
    <FormModal
      opened={editing !== null}
      onClose={onClose}
      title={isNew ? `New ${noun}` : `Edit ${noun}`}
      form={form}
      onSubmit={(v) => save.mutate(v)}
      submitLabel={isNew ? `Create ${noun}` : `Save ${noun}`}
      submitting={save.isPending}
    >
      {isNew ? children : <QueryView query={current} skeleton={<TableSkeleton rows={6} label={`Loading the ${noun}`} />}>{() => children}</QueryView>}
    </FormModal>
  );
}
