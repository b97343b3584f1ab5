import { Badge, Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ok } from '../../../api/api-error';
import type { MarketplaceListing } from '../../../api/types';
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
import { PriceAndStockFields, WHOLE_AMOUNT, costText, stockText } from '../cost-fields';
import { NEW_LISTING, createListingRequest, discountText, listingFieldOf, listingFormValues, updateListingRequest, type ListingFormValues } from './listing-request';

const KEYS = ['published', 'edit'] as const;

function ListingEditor({ editing, onClose }: { editing: string | null; onClose: () => void }) {
  const api = useApi();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['marketplace', 'listing'],
    load: (listingId) => ok(api.GET('/api/v1/incentives/marketplace/listings/{listingId}', { params: { path: { listingId } } })).then((d) => d.listing),
    valuesOf: listingFormValues,
    empty: NEW_LISTING,
    validate: {
      title: (v: string) => (v.trim() ? null : 'Give the listing a title'),
      discountValue: (v: number | string, values: ListingFormValues) =>
        Number(v) > 0 && (values.discountType === 'FIXED' || Number(v) <= 100) ? null : values.discountType === 'PERCENT' ? 'More than 0 and at most 100' : 'More than 0',
    },
    create: (values: ListingFormValues) => ok(api.POST('/api/v1/incentives/marketplace/listings', { body: createListingRequest(values) })).then((d) => d.listing),
    update: (listingId, values) =>
      ok(api.PATCH('/api/v1/incentives/marketplace/listings/{listingId}', { params: { path: { listingId } }, body: updateListingRequest(values) })).then((d) => d.listing),
    invalidates: [['marketplace']],
    saved: (listing, isNew) => `“${listing.title}” ${isNew ? 'listed' : 'saved'}.`,
    fieldOf: listingFieldOf,
  });
  const { form } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="listing">
      <TextInput label="Title" required maxLength={200} {...form.getInputProps('title')} />
      <Textarea label="Description" autosize minRows={2} maxLength={2000} {...form.getInputProps('description')} />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select
          label="Discount"
          data={[
            { value: 'PERCENT', label: 'Percent off' },
            { value: 'FIXED', label: 'Amount off' },
          ]}
          allowDeselect={false}
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('discountType')}
        />
        <NumberInput label="Discount value" min={0} decimalScale={2} allowNegative={false} required {...form.getInputProps('discountValue')} />
      </SimpleGrid>
      <PriceAndStockFields form={form} stockLabel="Codes to issue" />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Offer ends" description="Empty: no end. Codes already issued keep their own expiry." type="datetime-local" {...form.getInputProps('expiresAt')} />
        <NumberInput label="Code validity (days)" {...WHOLE_AMOUNT} min={1} max={3650} {...form.getInputProps('codeValidityDays')} />
      </SimpleGrid>
      <Switch label="Published (users of every app can redeem it)" {...form.getInputProps('published', { type: 'checkbox' })} />
    </EditorModal>
  );
}

/** The app's own listings, which users of every app redeem: create, edit, pause (unpublish), withdraw. */
export function ListingsPanel() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const published = booleanOf(values.published);
  const listings = useQuery({
    queryKey: ['app', appId, 'marketplace', 'listings', published, page],
    queryFn: () =>
      ok(api.GET('/api/v1/incentives/marketplace/listings', { params: { query: { page, limit: 25, ...(published !== undefined ? { published } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const withdraw = useChange({
    mutationFn: (listing: MarketplaceListing) => ok(api.DELETE('/api/v1/incentives/marketplace/listings/{listingId}', { params: { path: { listingId: listing.id } } })),
    invalidates: [['marketplace']],
    success: (_r, listing) => `“${listing.title}” withdrawn. Codes already issued stay valid.`,
  });
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <BooleanFilter label="Publication" placeholder="Published or paused" words={['Published', 'Paused']} value={values.published} onChange={(v) => set({ published: v })} />
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New listing</Button>
        </RoleGate>
      </Group>
      <QueryView query={listings} isEmpty={(d) => d.listings.length === 0} empty={<Empty title="No listings" description="A listing offers a discount at your business to users of every app, for their coins." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Listings"
              rows={d.listings}
              rowKey={(l) => l.id}
              minWidth={900}
              columns={[
                {
                  label: 'Listing',
                  cell: (l) => (
                    <>
                      <Text size="sm" fw={500}>
                        {l.title}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {l.id}
                      </Text>
                    </>
                  ),
                },
                { label: 'Discount', cell: (l) => discountText(l.discount) },
                { label: 'Cost', cell: (l) => costText(l) },
                { label: 'Codes', cell: (l) => (l.quantity === 0 ? <Badge color="red" variant="light">none left</Badge> : stockText(l.quantity)) },
                {
                  label: 'Ends',
                  cell: (l) =>
                    l.expiresAt && Date.parse(l.expiresAt) <= Date.now() ? <Badge color="gray" variant="light">expired</Badge> : l.expiresAt ? formatDateTime(l.expiresAt) : 'never',
                },
                {
                  label: 'Publication',
                  cell: (l) => (
                    <StateSwitch
                      subject={l.title}
                      on={l.published}
                      words={['published', 'paused']}
                      ariaLabel={`${l.title} published`}
                      change={(next) => ok(api.PATCH('/api/v1/incentives/marketplace/listings/{listingId}', { params: { path: { listingId: l.id } }, body: { published: next } }))}
                      invalidates={[['marketplace']]}
                    />
                  ),
                },
                {
                  label: 'Actions',
                  hiddenLabel: true,
                  cell: (l) => (
                    <RowActions
                      subject={l.title}
                      onEdit={() => set({ edit: l.id })}
                      remove={{
                        verb: 'Withdraw',
                        title: `Withdraw “${l.title}”?`,
                        message: 'It leaves the marketplace at once and cannot be redeemed again. Codes already issued stay valid.',
                        confirmLabel: 'Withdraw listing',
                        loading: withdraw.isPending,
                        onConfirm: () => withdraw.mutateAsync(l),
                      }}
                    />
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="listings" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <ListingEditor editing={values.edit} onClose={() => set({ edit: null })} />
      </RoleGate>
    </Stack>
  );
}
