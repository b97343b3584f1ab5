import { Anchor, Button, Checkbox, Drawer, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Timeline, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useAllows } from '../../session/session-context';
import { ExportButton } from '../../ui/export-button';
import { toggled } from '../../ui/row-selection';
import { RewardActionDialog } from './reward-action-dialog';
import { ACTION_APPLIES, ACTION_WORDS, useRewardActions, type RewardAction } from './use-reward-actions';
import { Link } from 'react-router';
import { ok } from '../../api/api-error';
import type { FulfillmentType, Reward, RewardStatus } from '../../api/types';
import { useApi, useAppId } from '../../api/use-api';
import { Field } from '../../ui/field';
import { PayoutLink } from '../../ui/payout-link';
import { formatDateTime, formatMoney } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView, TableSkeleton } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { FULFILLMENT_TYPES } from '../campaigns/campaign-request';
import { RewardAmount, RewardState } from './reward-state';
import { reversalOf, type RewardWithTerms } from './reward-terms';

const KEYS = ['userId', 'status', 'fulfillmentType', 'reward'] as const;
const STATUSES: RewardStatus[] = ['PENDING', 'APPROVED', 'PAID', 'CANCELLED'];


/** The actions an operator may take on these rewards (OWNER and MANAGER), each offered when it applies to at least one of them. */
function RewardActions({ rewards, onAct }: { rewards: Reward[]; onAct: (action: RewardAction) => void }) {
  if (!useAllows('MANAGER')) return null;
  const actions = (['APPROVE', 'FULFIL', 'CANCEL'] as const).filter((a) => rewards.some(ACTION_APPLIES[a]));
  return (
    <Group gap="xs">
      {actions.map((a) => (
        <Button key={a} size="compact-sm" variant={a === 'CANCEL' ? 'light' : 'filled'} color={a === 'CANCEL' ? 'red' : undefined} onClick={() => onAct(a)}>
          {ACTION_WORDS[a].verb}
        </Button>
      ))}
    </Group>
  );
}

/** Runs an action chosen for some rewards, through its confirmation dialog. */
function useActionFlow() {
  const actions = useRewardActions();
  const [pending, setPending] = useState<{ action: RewardAction; rewards: Reward[] } | null>(null);
  const dialog = (
    <RewardActionDialog
      key={pending?.action ?? 'none'}
      action={pending?.action ?? null}
      count={pending?.rewards.length ?? 0}
      pending={actions.isPending}
      onClose={() => setPending(null)}
      onConfirm={(note) => {
        if (!pending) return;
        actions.mutate({ action: pending.action, rewards: pending.rewards, note }, { onSettled: () => setPending(null) });
      }}
    />
  );
  // Only the rewards the action applies to are sent.
  const start = (action: RewardAction, rewards: Reward[]) => setPending({ action, rewards: rewards.filter(ACTION_APPLIES[action]) });
  return { dialog, start };
}

/** The fields of a reward's holding period, purchase and reversals, those it has. */
function RewardTermsFieldsOf({ reward: r }: { reward: RewardWithTerms }) {
  const reversal = reversalOf(r);
  return (
    <>
      {r.earnedAmount !== undefined && r.earnedAmount !== r.amount && <Field label="Earned">{formatMoney(r.earnedAmount, r.currency)}</Field>}
      {r.availableAt && <Field label="Payable from">{formatDateTime(r.availableAt)}</Field>}
      {reversal && (
        <Field label="Reversed">
          {formatMoney(reversal.taken, r.currency)}
          {reversal.reason ? ` · ${reversal.reason.toLowerCase()}` : ''}
        </Field>
      )}
      {r.purchaseId && <Field label="Earned by purchase">{r.purchaseId}</Field>}
    </>
  );
}

/** A CASH reward's payout (the one holding or paying it) and when it was paid; what its owner owes back for it, of any reward. */
function RewardPayoutFields({ reward: r }: { reward: Reward }) {
  return (
    <>
      {r.fulfillmentType === 'CASH' && <Field label="Payout">{r.payoutId ? <PayoutLink payoutId={r.payoutId} /> : r.status === 'APPROVED' ? 'none yet: payable' : '—'}</Field>}
      {r.paidAt && <Field label="Paid out">{formatDateTime(r.paidAt)}</Field>}
      {r.clawedBack > 0 && <Field label="Owed back">{formatMoney(r.clawedBack, r.currency)}</Field>}
    </>
  );
}

/** One reward and how it got to its status (its move journal). */
function RewardDrawer({ rewardId, onClose }: { rewardId: string | null; onClose: () => void }) {
  const api = useApi();
  const appId = useAppId();
  const flow = useActionFlow();
  const reward = useQuery({
    queryKey: ['app', appId, 'reward', rewardId],
    queryFn: () => ok(api.GET('/api/v1/rewards/{rewardId}', { params: { path: { rewardId: rewardId! } } })).then((d) => d.reward),
    enabled: rewardId !== null,
  });
  const history = useQuery({
    queryKey: ['app', appId, 'reward', rewardId, 'history'],
    queryFn: () => ok(api.GET('/api/v1/rewards/{rewardId}/history', { params: { path: { rewardId: rewardId! } } })).then((d) => d.history),
    enabled: rewardId !== null,
  });
  return (
    <Drawer opened={rewardId !== null} onClose={onClose} position="right" size="md" title="Reward">
      <QueryView query={reward} skeleton={<TableSkeleton rows={6} label="Loading the reward" />}>
        {(r) => (
          <Stack>
            <SimpleGrid cols={2}>
              <Field label="Amount">
                <RewardAmount reward={r} />
              </Field>
              <Field label="Status">
                <RewardState reward={r} />
              </Field>
              <Field label="User">
                <Anchor component={Link} to={`/apps/${encodeURIComponent(appId)}/users?userId=${encodeURIComponent(r.userId)}`}>
                  {r.userId}
                </Anchor>
              </Field>
              <Field label="Side and level">
                {r.side.toLowerCase()} · level {r.level}
              </Field>
              <Field label="Fulfilment">{FULFILLMENT_TYPES.find((f) => f.value === r.fulfillmentType)?.label ?? r.fulfillmentType}</Field>
              <Field label="Code">{r.discountCode ?? '—'}</Field>
              <Field label="Created">{formatDateTime(r.createdAt)}</Field>
              <Field label="Claimed">{formatDateTime(r.claimedAt)}</Field>
              <Field label="Redeemed">{formatDateTime(r.redeemedAt)}</Field>
              <Field label="Expires">{formatDateTime(r.expiresAt)}</Field>
              <RewardTermsFieldsOf reward={r} />
              <RewardPayoutFields reward={r} />
              {r.cancellationNote && <Field label="Cancelled because">{r.cancellationNote}</Field>}
            </SimpleGrid>
            <RewardActions rewards={[r]} onAct={(action) => flow.start(action, [r])} />
            <Text size="xs" c="dimmed">
              {r.id} · campaign {r.campaignId} · conversion {r.conversionId}
            </Text>
            <Title order={3} size="h5">
              History
            </Title>
            <QueryView query={history} isEmpty={(h) => h.length === 0} empty={<Text size="sm" c="dimmed">No moves yet: the reward is as it was created.</Text>}>
              {(moves) => (
                <Timeline active={moves.length} bulletSize={16}>
                  {moves.map((m) => (
                    <Timeline.Item key={`${m.at}:${m.to}`} title={m.from === 'NEW' ? `created ${m.to.toLowerCase()}` : `${m.from.toLowerCase()} → ${m.to.toLowerCase()}`}>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(m.at)}
                      </Text>
                      {m.note && <Text size="sm">{m.note}</Text>}
                    </Timeline.Item>
                  ))}
                </Timeline>
              )}
            </QueryView>
          </Stack>
        )}
      </QueryView>
      {flow.dialog}
    </Drawer>
  );
}

export function RewardsPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const [user, setUser] = useState(values.userId ?? '');
  const status = STATUSES.find((s) => s === values.status);
  const fulfillmentType = FULFILLMENT_TYPES.find((f) => f.value === values.fulfillmentType)?.value as FulfillmentType | undefined;
  const rewards = useQuery({
    queryKey: ['app', appId, 'rewards', values.userId, status, fulfillmentType, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/rewards', {
          params: {
            query: {
              page,
              limit: 25,
              ...(values.userId ? { userId: values.userId } : {}),
              ...(status ? { status } : {}),
              ...(fulfillmentType ? { fulfillmentType } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const canAct = useAllows('MANAGER');
  const flow = useActionFlow();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  // Only rewards on view can be selected: a new page or filter starts a new selection.
  const rows = rewards.data?.rewards ?? [];
  const pageIds = rows.filter((r) => ACTION_APPLIES.CANCEL(r)).map((r) => r.id);
  const chosen = rows.filter((r) => selected.has(r.id) && pageIds.includes(r.id));
  const exportQuery = {
    ...(values.userId ? { userId: values.userId } : {}),
    ...(status ? { status } : {}),
    ...(fulfillmentType ? { fulfillmentType } : {}),
  };
  return (
    <>
      <PageHeader
        title="Rewards"
        description="What referrers and referees earned, and where each reward stands."
        actions={<ExportButton path="/api/v1/rewards/export" query={exportQuery} label="Export rewards" />}
      />
      <Group mb="md" align="flex-end" wrap="wrap">
        <form
          role="search"
          aria-label="Rewards of a user"
          onSubmit={(e) => {
            e.preventDefault();
            set({ userId: user.trim() || null });
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput label="User id" value={user} onChange={(e) => setUser(e.currentTarget.value)} w={{ base: '100%', xs: 200 }} />
            <Button type="submit" variant="light">
              Filter
            </Button>
          </Group>
        </form>
        <Select label="Status" placeholder="Any status" clearable data={STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))} value={status ?? null} onChange={(v) => set({ status: v })} w={170} />
        <Select label="Fulfilment" placeholder="Any" clearable data={FULFILLMENT_TYPES} value={fulfillmentType ?? null} onChange={(v) => set({ fulfillmentType: v })} w={170} />
      </Group>
      <QueryView query={rewards} isEmpty={(d) => d.rewards.length === 0} empty={<Empty title="No rewards" description="No reward matches these filters." />}>
        {(d) => (
          <Stack>
            {canAct && chosen.length > 0 && (
              <Group gap="xs" aria-label="Selected rewards">
                <Text size="sm">{chosen.length} selected</Text>
                <RewardActions
                  rewards={chosen}
                  onAct={(action) => {
                    flow.start(action, chosen);
                    setSelected(new Set());
                  }}
                />
              </Group>
            )}
            <Table.ScrollContainer minWidth={760}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {canAct && (
                      <Table.Th>
                        <Checkbox
                          aria-label="Select every reward of this page that can still change"
                          checked={pageIds.length > 0 && pageIds.every((id) => selected.has(id))}
                          indeterminate={chosen.length > 0 && chosen.length < pageIds.length}
                          disabled={pageIds.length === 0}
                          onChange={() => setSelected(toggled(selected, 'all', pageIds))}
                        />
                      </Table.Th>
                    )}
                    <Table.Th>User</Table.Th>
                    <Table.Th>Amount</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Side · level</Table.Th>
                    <Table.Th>Fulfilment</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>Details</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.rewards.map((r) => (
                    <Table.Tr key={r.id} data-testid="reward-row">
                      {canAct && (
                        <Table.Td>
                          <Checkbox
                            aria-label={`Select reward ${r.id}`}
                            checked={selected.has(r.id)}
                            disabled={!pageIds.includes(r.id)}
                            onChange={() => setSelected(toggled(selected, r.id, pageIds))}
                          />
                        </Table.Td>
                      )}
                      <Table.Td>{r.userId}</Table.Td>
                      <Table.Td>
                        <RewardAmount reward={r} />
                      </Table.Td>
                      <Table.Td>
                        <RewardState reward={r} />
                      </Table.Td>
                      <Table.Td>
                        {r.side.toLowerCase()} · {r.level}
                      </Table.Td>
                      <Table.Td>{FULFILLMENT_TYPES.find((f) => f.value === r.fulfillmentType)?.label ?? r.fulfillmentType}</Table.Td>
                      <Table.Td>{formatDateTime(r.createdAt)}</Table.Td>
                      <Table.Td>
                        <Button size="compact-sm" variant="light" onClick={() => set({ reward: r.id })} aria-label={`Details of reward ${r.id}`}>
                          Open
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={d.pagination} label="rewards" />
          </Stack>
        )}
      </QueryView>
      <RewardDrawer rewardId={values.reward} onClose={() => set({ reward: null })} />
      {flow.dialog}
    </>
  );
}
