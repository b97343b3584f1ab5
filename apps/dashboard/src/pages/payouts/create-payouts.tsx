import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ok } from '../../api/api-error';
import { useOperationKey } from '../../api/operation-key';
import type { CreatePayouts as CreatePayoutsRequest, Payout, PayoutDue } from '../../api/types';
import { useApi } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { ConfirmButton } from '../../ui/confirm-button';
import { DataTable } from '../../ui/data-table';
import { countOf, formatMoney, formatSums } from '../../ui/format';
import { PayoutLink } from '../../ui/payout-link';
import { useChange } from '../../ui/use-change';
import { UserLink } from '../../ui/user-link';
import { PAYOUT_QUERIES, payoutMakeup } from './payout-words';

/** The payouts one "Create payouts" made, each opening in its drawer. */
function MadeModal({ made, onClose }: { made: Payout[] | null; onClose: () => void }) {
  return (
    <Modal opened={made !== null} onClose={onClose} title="Payouts made" centered size="lg">
      {made && (
        <Stack>
          <Text size="sm" role="status">
            {countOf(made.length, 'payouts')} made, {formatSums(made)} in all, each PENDING: send each transfer, then mark it paid with its reference (or failed).
          </Text>
          <DataTable
            label="Payouts made"
            minWidth={480}
            rows={made}
            rowKey={(p) => p.id}
            rowProps={() => ({ 'data-testid': 'made-payout' })}
            columns={[
              { label: 'Referrer', cell: (p) => <UserLink userId={p.userId} /> },
              { label: 'Amount', cell: (p) => formatMoney(p.amount, p.currency) },
              { label: 'Made of', cell: (p) => payoutMakeup(p) },
              // Opening one closes this dialog: its drawer shows on the page.
              { label: 'Payout', cell: (p) => <PayoutLink payoutId={p.id} onClick={onClose} /> },
            ]}
          />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * "Create payouts" (MANAGER, OWNER): POST /payouts with the filters on
 * view, after confirming what the due list says it will pay, sent with an
 * Idempotency-Key (a retry after a lost answer makes them once); then what
 * was made, or that nothing was due any more.
 */
export function CreatePayouts({ request, due }: { request: CreatePayoutsRequest; due: readonly PayoutDue[] | undefined }) {
  const api = useApi();
  const operation = useOperationKey();
  const [made, setMade] = useState<Payout[] | null>(null);
  const create = useChange({
    mutationFn: (body: CreatePayoutsRequest) =>
      ok(api.POST('/api/v1/payouts', { params: { header: { 'Idempotency-Key': operation.keyFor(body) } }, body })).then((d) => d.payouts),
    invalidates: PAYOUT_QUERIES,
    success: (payouts) => (payouts.length === 0 ? 'Nothing was due: no payout made.' : `${countOf(payouts.length, 'payouts')} made.`),
    onSuccess: (payouts) => {
      operation.done();
      if (payouts.length > 0) setMade(payouts);
    },
    onError: operation.failed,
  });
  const payable = (due ?? []).filter((d) => d.payable);
  return (
    <RoleGate least="MANAGER">
      <ConfirmButton
        disabled={payable.length === 0}
        title="Create payouts?"
        message={`${countOf(payable.length, 'payouts')} of ${formatSums(payable)} in all, one per referrer and currency listed as payable. Their rewards and clawbacks are held by them until each is marked paid or failed.`}
        confirmLabel={`Create ${countOf(payable.length, 'payouts')}`}
        loading={create.isPending}
        onConfirm={() => create.mutateAsync(request)}
      >
        Create payouts
      </ConfirmButton>
      <MadeModal made={made} onClose={() => setMade(null)} />
    </RoleGate>
  );
}
