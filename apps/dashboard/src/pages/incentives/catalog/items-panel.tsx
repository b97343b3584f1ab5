import { Badge, Button, Group, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { CatalogItem } from '../../../api/types';
import { useApi, useAppId } from '../../../api/use-api';
import { RoleGate } from '../../../session/session-context';
import { BooleanFilter, booleanOf } from '../../../ui/boolean-filter';
import { DataTable } from '../../../ui/data-table';
import { EditorModal, useEditor } from '../../../ui/editor';
import { formatDateTime } from '../../../ui/format';
import { Empty, QueryView } from '../../../ui/query-state';
import { RowActions } from '../../../ui/row-actions';
import { StateSwitch } from '../../../ui/state-switch';
import { UrlPagination } from '../../../ui/url-pagination';
import { useChange } from '../../../ui/use-change';
import { useSearchState } from '../../../url/search-state';
import { PriceAndStockFields, costText, stockText } from '../cost-fields';
import { NEW_ITEM, itemFieldOf, itemFormValues, itemRequest, type ItemFormValues } from './item-request';

const KEYS = ['published', 'edit'] as const;

function ItemEditor({ editing, onClose }: { editing: string | null; onClose: () => void }) {
  const api = useApi();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['catalog', 'item'],
    load: (itemId) => ok(api.GET('/api/v1/incentives/catalog/{itemId}', { params: { path: { itemId } } })).then((d) => d.item),
    valuesOf: itemFormValues,
    empty: NEW_ITEM,
    validate: { name: (v: string) => (v.trim() ? null : 'Give the item a name') },
    create: (values: ItemFormValues) => ok(api.POST('/api/v1/incentives/catalog', { body: itemRequest(values) })).then((d) => d.item),
    update: (itemId, values) => ok(api.PATCH('/api/v1/incentives/catalog/{itemId}', { params: { path: { itemId } }, body: itemRequest(values) })).then((d) => d.item),
    invalidates: [['catalog']],
    saved: (item, isNew) => `“${item.name}” ${isNew ? 'added to the catalog' : 'saved'}.`,
    fieldOf: itemFieldOf,
  });
  const { form } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="item">
      <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
      <PriceAndStockFields form={form} stockLabel="Units in stock" />
      <Switch label="Published (only published items can be redeemed)" {...form.getInputProps('published', { type: 'checkbox' })} />
    </EditorModal>
  );
}

/** The app's catalog: what users redeem coins and tokens for, its stock and publication. */
export function ItemsPanel() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const published = booleanOf(values.published);
  const items = useQuery({
    queryKey: ['app', appId, 'catalog', 'items', published, page],
    queryFn: () => ok(api.GET('/api/v1/incentives/catalog', { params: { query: { page, limit: 25, ...(published !== undefined ? { published } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useChange({
    mutationFn: (item: CatalogItem) => ok(api.DELETE('/api/v1/incentives/catalog/{itemId}', { params: { path: { itemId: item.id } } })),
    invalidates: [['catalog']],
    success: (_r, item) => `“${item.name}” deleted: no longer listed or redeemable.`,
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <BooleanFilter label="Publication" placeholder="Published or not" words={['Published', 'Unpublished']} value={values.published} onChange={(v) => set({ published: v })} />
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New item</Button>
        </RoleGate>
      </Group>
      <QueryView query={items} isEmpty={(d) => d.items.length === 0} empty={<Empty title="No items" description="Items are what users redeem their coins and tokens for." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Catalog items"
              rows={d.items}
              rowKey={(i) => i.id}
              minWidth={760}
              columns={[
                {
                  label: 'Item',
                  cell: (i) => (
                    <>
                      <Text size="sm" fw={500}>
                        {i.name}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {i.description || i.id}
                      </Text>
                    </>
                  ),
                },
                { label: 'Cost', cell: (i) => costText(i) },
                { label: 'Stock', cell: (i) => (i.inventory === 0 ? <Badge color="red" variant="light">none left</Badge> : stockText(i.inventory)) },
                {
                  label: 'Publication',
                  cell: (i) => (
                    <StateSwitch
                      subject={i.name}
                      on={i.published}
                      words={['published', 'unpublished']}
                      ariaLabel={`${i.name} published`}
                      change={(published) => ok(api.PATCH('/api/v1/incentives/catalog/{itemId}', { params: { path: { itemId: i.id } }, body: { published } }))}
                      invalidates={[['catalog']]}
                    />
                  ),
                },
                { label: 'Updated', cell: (i) => formatDateTime(i.updatedAt) },
                {
                  label: 'Actions',
                  hiddenLabel: true,
                  cell: (i) => (
                    <RowActions
                      subject={i.name}
                      onEdit={() => set({ edit: i.id })}
                      remove={{
                        verb: 'Delete',
                        title: `Delete “${i.name}”?`,
                        message: 'It is no longer listed, readable or redeemable. Its redemptions keep it in their history.',
                        confirmLabel: 'Delete item',
                        loading: remove.isPending,
                        onConfirm: () => remove.mutateAsync(i),
                      }}
                    />
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="items" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <ItemEditor editing={values.edit} onClose={() => set({ edit: null })} />
      </RoleGate>
    </Stack>
  );
}
