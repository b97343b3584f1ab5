import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../../api/api-error';
import type { Badge } from '../../../api/types';
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
import { definitionKeyRule, requiredName } from '../definition-key';
import { ReachedDrawer } from './reached-drawer';
import { NEW_BADGE, badgeFormValues, createBadgeRequest, updateBadgeRequest, type BadgeFormValues } from './progression-request';
import { BadgeIdentity } from './badge-identity';

const KEYS = ['edit', 'holders'] as const;
const SOURCES = { MANUAL: 'by hand', LEVEL: 'level', MILESTONE: 'milestone', STREAK: 'streak' } as const;

function BadgeEditor({ editing, onClose }: { editing: string | null; onClose: () => void }) {
  const api = useApi();
  const editor = useEditor({
    editing,
    onClose,
    queryKey: ['progression', 'badge'],
    // The API has no read of one badge: it is found among the app's (the first 100).
    load: (key) =>
      ok(api.GET('/api/v1/incentives/badges', { params: { query: { limit: 100 } } })).then((d) => {
        const found = d.badges.find((b) => b.key === key);
        if (!found) throw new Error(`The app has no badge ${key}.`);
        return found;
      }),
    valuesOf: badgeFormValues,
    empty: NEW_BADGE,
    validate: {
      key: definitionKeyRule(editing === 'new'),
      name: requiredName('badge'),
      imageUrl: (v: string) => (!v.trim() || /^https?:\/\/\S+$/.test(v.trim()) ? null : 'An http(s) URL, or nothing'),
    },
    create: (values: BadgeFormValues) => ok(api.POST('/api/v1/incentives/badges', { body: createBadgeRequest(values) })).then((d) => d.badge),
    update: (key, values) => ok(api.PATCH('/api/v1/incentives/badges/{key}', { params: { path: { key } }, body: updateBadgeRequest(values) })).then((d) => d.badge),
    invalidates: [['progression']],
    saved: (badge, isNew) => `Badge “${badge.name}” ${isNew ? 'created' : 'saved'}.`,
  });
  const { form, isNew } = editor;
  return (
    <EditorModal editor={editor} editing={editing} onClose={onClose} noun="badge">
      <TextInput label="Key" description="Levels and milestones name the badge by it; it never changes." required disabled={!isNew} {...form.getInputProps('key')} />
      <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
      <Textarea label="Description" autosize minRows={2} maxLength={1000} {...form.getInputProps('description')} />
      <TextInput label="Image URL" placeholder="https://…" type="url" {...form.getInputProps('imageUrl')} />
    </EditorModal>
  );
}

/** Awards a badge by hand to one user (each badge at most once per user). */
function AwardDialog({ badge, onClose }: { badge: Badge | null; onClose: () => void }) {
  const api = useApi();
  const [userId, setUserId] = useState('');
  const award = useChange({
    mutationFn: (user: string) => ok(api.POST('/api/v1/incentives/badges/{key}/award', { params: { path: { key: badge!.key } }, body: { userId: user } })),
    invalidates: [['progression'], ['user']],
    success: (answer, user) => (answer.awarded ? `“${answer.badge.name}” awarded to ${user}.` : `${user} already holds “${answer.badge.name}”.`),
    onSuccess: () => {
      setUserId('');
      onClose();
    },
  });
  return (
    <Modal opened={badge !== null} onClose={onClose} title={`Award “${badge?.name ?? ''}”`} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (userId.trim()) award.mutate(userId.trim());
        }}
      >
        <Stack>
          <TextInput label="User id" required value={userId} onChange={(e) => setUserId(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={award.isPending} disabled={!userId.trim()}>
              Award badge
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The app's badges: define and edit them, award one by hand. */
export function BadgesPanel() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const [awarding, setAwarding] = useState<Badge | null>(null);
  const badges = useQuery({
    queryKey: ['app', appId, 'progression', 'badges', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/badges', { params: { query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Group justify="flex-end">
        <RoleGate least="MANAGER">
          <Button onClick={() => set({ edit: 'new' })}>New badge</Button>
        </RoleGate>
      </Group>
      <QueryView query={badges} isEmpty={(d) => d.badges.length === 0} empty={<Empty title="No badges yet" description="Levels, milestones or an operator award badges; each at most once per user." />}>
        {(d) => (
          <Stack>
            <DataTable
              label="Badges"
              rows={d.badges}
              rowKey={(b) => b.key}
              minWidth={640}
              columns={[
                {
                  label: 'Badge',
                  cell: (b) => <BadgeIdentity badge={b} />,
                },
                { label: 'Description', cell: (b) => b.description ?? '—' },
                {
                  label: 'Holders',
                  cell: (b) => (
                    <Button size="compact-sm" variant="subtle" onClick={() => set({ holders: b.key })} aria-label={`Holders of ${b.name}`}>
                      Holders
                    </Button>
                  ),
                },
                {
                  label: 'Actions',
                  hiddenLabel: true,
                  cell: (b) => (
                    <RowActions subject={b.name} onEdit={() => set({ edit: b.key })}>
                      <Button size="compact-sm" variant="light" onClick={() => setAwarding(b)} aria-label={`Award ${b.name}`}>
                        Award
                      </Button>
                    </RowActions>
                  ),
                },
              ]}
            />
            <UrlPagination pagination={d.pagination} label="badges" />
          </Stack>
        )}
      </QueryView>
      <ReachedDrawer
        subject={values.holders}
        title={`Holders of ${values.holders ?? ''}`}
        noun="holders"
        queryKey={['progression', 'badge-holders']}
        load={(key, p) =>
          ok(api.GET('/api/v1/incentives/badges/{key}/holders', { params: { path: { key }, query: { page: p, limit: 25 } } })).then((d) => ({ rows: d.holders, pagination: d.pagination }))
        }
        rowKey={(h) => h.userId}
        columns={[
          { label: 'User', cell: (h) => <UserLink userId={h.userId} /> },
          { label: 'Awarded', cell: (h) => `${SOURCES[h.source]}${h.sourceId ? ` ${h.sourceId}` : ''}` },
          { label: 'When', cell: (h) => formatDateTime(h.awardedAt) },
        ]}
      />
      <RoleGate least="MANAGER">
        <BadgeEditor editing={values.edit} onClose={() => set({ edit: null })} />
        <AwardDialog badge={awarding} onClose={() => setAwarding(null)} />
      </RoleGate>
    </Stack>
  );
}
