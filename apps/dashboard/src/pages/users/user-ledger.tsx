import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { DataTable } from '../../ui/data-table';
import { ExportButton } from '../../ui/export-button';
import { formatAmounts, formatDateTime } from '../../ui/format';
import { Empty, QueryView } from '../../ui/query-state';
import { UrlPagination } from '../../ui/url-pagination';
import { causeOf } from './ledger-cause';
import { ledgerNoteColor, ledgerNotes } from './ledger-notes';
import { ReverseEventModal, isEventReward, reversedSources } from './reverse-event';

/**
 * Every movement of the user's balances, newest first, with its cause and the
 * balance after it; an event's reward can be reversed (MANAGER, OWNER).
 */
export function UserLedger({ userId, page }: { userId: string; page: number }) {
  const api = useApi();
  const appId = useAppId();
  // The event whose reversal is being confirmed.
  const [reversing, setReversing] = useState<string | null>(null);
  const ledger = useQuery({
    queryKey: ['app', appId, 'user', userId, 'ledger', page],
    queryFn: () => ok(api.GET('/api/v1/incentives/balances/{userId}/transactions', { params: { path: { userId }, query: { page, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <QueryView query={ledger} isEmpty={(d) => d.transactions.length === 0} empty={<Empty title="No movements yet" description="Events, rewards, redemptions and adjustments show here." />}>
        {(d) => {
          // Events taken back on this page (a reversal is newer than its reward: on this page or one before).
          const reversed = reversedSources(d.transactions);
          return (
            <Stack>
              <Group justify="flex-end">
                <ExportButton path="/api/v1/incentives/balances/{userId}/transactions/export" pathParams={{ userId }} label={`Export the ledger of ${userId}`} />
              </Group>
              <DataTable
                label="Ledger"
                rows={d.transactions}
                rowKey={(t) => t.id}
                minWidth={860}
                rowProps={() => ({ 'data-testid': 'ledger-row' })}
                columns={[
                  { label: '#', cell: (t) => t.seq },
                  { label: 'When', cell: (t) => formatDateTime(t.createdAt) },
                  {
                    label: 'Cause',
                    cell: (t) => {
                      // The boost that multiplied it, the streak length that paid it, pending changes, debt and debt repaid.
                      const notes = ledgerNotes(t);
                      return (
                        <>
                          <Text size="sm">{causeOf(t)}</Text>
                          {notes.length > 0 && (
                            <Group gap={4} mt={2}>
                              {notes.map((note) => (
                                <Badge key={note} variant="light" color={ledgerNoteColor(note)} tt="none">
                                  {note}
                                </Badge>
                              ))}
                            </Group>
                          )}
                        </>
                      );
                    },
                  },
                  { label: 'Change', cell: (t) => <Text size="sm" c={t.coins < 0 || t.tokens < 0 || t.xp < 0 ? 'red' : 'teal'}>{formatAmounts(t, { signed: true })}</Text> },
                  { label: 'Balance after', cell: (t) => formatAmounts(t.balanceAfter) },
                  {
                    label: 'Details',
                    cell: (t) => (
                      <>
                        <Text size="sm">{t.description ?? t.actionKey ?? '—'}</Text>
                        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                          {t.sourceId}
                        </Text>
                      </>
                    ),
                  },
                  {
                    label: 'Reversal',
                    hiddenLabel: true,
                    cell: (t) =>
                      isEventReward(t) &&
                      (reversed.has(t.sourceId) ? (
                        <Badge variant="light" color="gray" tt="none">
                          reversed
                        </Badge>
                      ) : (
                        <RoleGate least="MANAGER">
                          <Button size="compact-sm" variant="light" color="red" onClick={() => setReversing(t.sourceId)} aria-label={`Reverse event ${t.sourceId}`}>
                            Reverse
                          </Button>
                        </RoleGate>
                      )),
                  },
                ]}
              />
              <UrlPagination pagination={d.pagination} label="movements" />
            </Stack>
          );
        }}
      </QueryView>
      <RoleGate least="MANAGER">
        <ReverseEventModal userId={userId} eventId={reversing} onClose={() => setReversing(null)} />
      </RoleGate>
    </>
  );
}
