import { Badge, Button, Checkbox, Group, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate, useAllows } from '../../session/session-context';
import { formatDateTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { Empty, QueryView } from '../../ui/query-state';
import { StatusBadge } from '../../ui/status-badge';
import { UrlPagination } from '../../ui/url-pagination';
import { useSearchState } from '../../url/search-state';
import { useCampaignOptions } from '../campaigns/use-campaigns';
import { EvidenceDrawer } from './evidence-drawer';
import { reasonInWords, riskColor } from './reasons';
import { ResolveDialog } from './resolve-dialog';
import { riskiestFirst, toggled } from './review-order';
import { useResolveFlags, type Decision } from './use-resolve-flags';

const KEYS = ['status', 'campaignId', 'flag'] as const;
const VIEWS = ['OPEN', 'APPROVED', 'REJECTED'] as const;

export function FraudReviewPage() {
  const api = useApi();
  const appId = useAppId();
  const { values, set, page } = useSearchState(KEYS);
  const campaigns = useCampaignOptions();
  const canDecide = useAllows('MANAGER');
  const status = VIEWS.find((v) => v === values.status) ?? 'OPEN';
  const open = status === 'OPEN';
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [decision, setDecision] = useState<Decision | null>(null);
  const resolve = useResolveFlags();

  const flags = useQuery({
    queryKey: ['app', appId, 'fraud', 'flags', status, values.campaignId, page],
    queryFn: () =>
      ok(
        api.GET('/api/v1/fraud/flags', {
          params: {
            query: {
              status,
              page,
              limit: 25,
              // Open flags riskiest first; decided ones newest first.
              ...(open ? { sort: 'riskScore' as const } : {}),
              ...(values.campaignId ? { campaignId: values.campaignId } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const rows = useMemo(() => (flags.data ? (open ? riskiestFirst(flags.data.flags) : flags.data.flags) : []), [flags.data, open]);
  // Only flags on view can be selected: a new page or filter starts a new selection.
  const pageIds = rows.filter((f) => f.status === 'OPEN').map((f) => f.id);
  const chosen = pageIds.filter((id) => selected.has(id));
  const allChosen = pageIds.length > 0 && chosen.length === pageIds.length;

  return (
    <>
      <PageHeader title="Fraud review" description="Referrals and conversions the fraud checks held back, with the evidence. Decide each, or several at once." />
      <Group mb="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="flag-view">
            Flags
          </Text>
          <SegmentedControl
            aria-labelledby="flag-view"
            value={status}
            onChange={(v) => {
              setSelected(new Set());
              set({ status: v === 'OPEN' ? null : v });
            }}
            data={[
              { value: 'OPEN', label: 'Open' },
              { value: 'APPROVED', label: 'Approved' },
              { value: 'REJECTED', label: 'Rejected' },
            ]}
          />
        </Stack>
        <Select
          label="Campaign"
          placeholder="Every campaign"
          clearable
          searchable
          data={campaigns.data ?? []}
          value={values.campaignId}
          onChange={(v) => {
            setSelected(new Set());
            set({ campaignId: v });
          }}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {open && canDecide && (
        <Group mb="sm" gap="xs" aria-live="polite">
          <Text size="sm">{chosen.length} selected</Text>
          <Button size="xs" color="green" disabled={chosen.length === 0} onClick={() => setDecision('APPROVE')}>
            Approve selected
          </Button>
          <Button size="xs" color="red" disabled={chosen.length === 0} onClick={() => setDecision('REJECT')}>
            Reject selected
          </Button>
        </Group>
      )}
      <QueryView
        query={flags}
        isEmpty={(d) => d.flags.length === 0}
        empty={<Empty title={open ? 'Nothing to review' : `No ${status.toLowerCase()} flags`} description={open ? 'No flagged referral or conversion waits for a decision.' : undefined} />}
      >
        {(d) => (
          <Stack>
            <Table.ScrollContainer minWidth={860}>
              <Table striped highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    {open && canDecide && (
                      <Table.Th w={40}>
                        <Checkbox
                          aria-label="Select every flag on this page"
                          checked={allChosen}
                          indeterminate={chosen.length > 0 && !allChosen}
                          onChange={() => setSelected(toggled(selected, 'all', pageIds))}
                        />
                      </Table.Th>
                    )}
                    {/* The row's action comes first: on a phone the wide table scrolls, and the button must not start off-screen. */}
                    <Table.Th>Evidence</Table.Th>
                    <Table.Th>Risk</Table.Th>
                    <Table.Th>Why</Table.Th>
                    <Table.Th>Referrer → referee</Table.Th>
                    <Table.Th>Kind</Table.Th>
                    <Table.Th>{open ? 'Flagged' : 'Decided'}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((f) => (
                    <Table.Tr key={f.id} data-testid="flag-row" bg={selected.has(f.id) ? 'var(--mantine-primary-color-light)' : undefined}>
                      {open && canDecide && (
                        <Table.Td>
                          <Checkbox
                            aria-label={`Select flag of ${f.referrerId} → ${f.refereeId ?? '—'} (risk ${f.riskScore})`}
                            checked={selected.has(f.id)}
                            onChange={() => setSelected(toggled(selected, f.id, pageIds))}
                          />
                        </Table.Td>
                      )}
                      <Table.Td>
                        <Button size="compact-sm" variant="light" onClick={() => set({ flag: f.id })} aria-label={`Evidence of the flag of ${f.referrerId}`}>
                          Review
                        </Button>
                      </Table.Td>
                      <Table.Td>
                        <Badge color={riskColor(f.riskScore)} aria-label={`Risk score ${f.riskScore}`}>
                          {f.riskScore}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          {f.reasons.map((r) => (
                            <Text key={r} size="sm">
                              {reasonInWords(r)}
                            </Text>
                          ))}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        {f.referrerId} → {f.refereeId ?? '—'}
                        <Text size="xs" c="dimmed">
                          code {f.referralCode}
                        </Text>
                      </Table.Td>
                      <Table.Td>{f.type.toLowerCase()}</Table.Td>
                      <Table.Td>
                        {open ? (
                          formatDateTime(f.createdAt)
                        ) : (
                          <>
                            <StatusBadge status={f.status} /> {formatDateTime(f.resolvedAt)}
                            <Text size="xs" c="dimmed">
                              by {f.resolvedBy?.email ?? 'an API key'}
                              {f.note ? ` · “${f.note}”` : ''}
                            </Text>
                          </>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <UrlPagination pagination={d.pagination} label="flags" />
          </Stack>
        )}
      </QueryView>
      <RoleGate least="MANAGER">
        <ResolveDialog
          key={decision ?? 'closed'}
          decision={decision}
          count={chosen.length}
          pending={resolve.isPending}
          onClose={() => setDecision(null)}
          onConfirm={(note) =>
            resolve.mutate(
              { ids: chosen, decision: decision!, note },
              {
                onSuccess: () => {
                  setSelected(new Set());
                  setDecision(null);
                },
              },
            )
          }
        />
      </RoleGate>
      <EvidenceDrawer flagId={values.flag} onClose={() => set({ flag: null })} />
    </>
  );
}
