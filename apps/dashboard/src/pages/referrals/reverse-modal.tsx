import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Select, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useId, useRef, useState } from 'react';
import { ApiError, errorMessage, ok } from '../../api/api-error';
import type { Conversion } from '../../api/types';
import { useOperationKey } from '../../api/operation-key';
import { useApi } from '../../api/use-api';
import { DataTable } from '../../ui/data-table';
import { formatMoney } from '../../ui/format';
import { useChange } from '../../ui/use-change';
import {
  NEW_REVERSAL,
  OWN_SALE,
  REVERSAL_REASONS,
  currencyDigits,
  effectText,
  reasonText,
  reversalErrors,
  reversalRequest,
  reversibleSales,
  type Purchase,
  type ReversalFormValues,
  type ReverseAnswer,
  type SaleOption,
} from './reversal-form';

/** The API's answer to a reversal, and whether it changed anything (200: a sale reversed in full before). */
type Outcome = ReverseAnswer & { unchanged: boolean };

/** What a reversal did: to the sale, then to each of its rewards. */
function ReversalOutcome({ outcome, onDone }: { outcome: Outcome; onDone: () => void }) {
  const { reversal } = outcome;
  const money = (value: number) => formatMoney(value, reversal.currency);
  const sale = reversal.purchaseId ? `purchase ${reversal.purchaseId}` : "the conversion's sale";
  return (
    <Stack>
      <Alert color={outcome.unchanged ? 'yellow' : 'green'} role="status" title={outcome.unchanged ? 'Nothing changed' : 'Reversed'}>
        {outcome.unchanged
          ? `This sale was reversed in full already (${reasonText(reversal.reason)}, ${money(reversal.amount)}): that reversal stands, and nothing else changed.`
          : `${reversal.full ? 'All that was left of' : `${money(reversal.amount)} of`} ${sale} (${reasonText(reversal.reason)}): ${money(reversal.rewardAmountReversed)} of reward value taken back${reversal.clawbackAmount > 0 ? `, ${money(reversal.clawbackAmount)} owed back` : ''}.`}
      </Alert>
      {outcome.rewards.length === 0 ? (
        <Text size="sm" c="dimmed">
          The sale had no rewards.
        </Text>
      ) : (
        <DataTable
          label="What happened to each reward"
          minWidth={420}
          rows={outcome.rewards}
          rowKey={(r) => r.reward.id}
          rowProps={(r) => ({ 'data-testid': 'reward-effect', 'data-effect': r.effect })}
          columns={[
            { label: 'User', cell: (r) => r.reward.userId },
            { label: 'Side · level', cell: (r) => `${r.reward.side.toLowerCase()} · ${r.reward.level}` },
            { label: 'What happened', cell: (r) => effectText(r) },
          ]}
        />
      )}
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

/** The form of a reversal: which sale, all of it or a part (at most what is left), why. */
function ReversalForm({
  conversion,
  sales,
  onCancel,
  onReversed,
}: {
  conversion: Pick<Conversion, 'conversionId'>;
  sales: SaleOption[];
  onCancel: () => void;
  onReversed: (outcome: Outcome) => void;
}) {
  const api = useApi();
  const operation = useOperationKey();
  // The latest sales, for the checks (what is left changes after each reversal).
  const salesRef = useRef(sales);
  salesRef.current = sales;
  const form = useForm<ReversalFormValues>({
    initialValues: { ...NEW_REVERSAL, sale: sales[0]?.value ?? OWN_SALE },
    validate: (values) => reversalErrors(values, salesRef.current),
  });
  const reverse = useChange({
    mutationFn: async (values: ReversalFormValues): Promise<Outcome> => {
      const body = reversalRequest(values);
      let status = 0;
      const answer = await ok(
        api
          .POST('/api/v1/conversions/{conversionId}/reversals', {
            params: { path: { conversionId: conversion.conversionId }, header: { 'Idempotency-Key': operation.keyFor(body) } },
            body,
          })
          .then((a) => {
            status = a.response.status;
            return a;
          }),
      );
      return { ...answer, unchanged: status === 200 };
    },
    // The conversion, its rewards, the figures and the user's clawbacks all move.
    invalidates: [[]],
    form,
    // The API names a purchase as purchaseId: the form picks it as the sale.
    fieldOf: (field) => (field === 'purchaseId' ? 'sale' : field),
    refusalsShownInForm: true,
    onSuccess: (outcome) => {
      operation.done();
      onReversed(outcome);
    },
    onError: operation.failed,
  });
  const scopeLabel = useId();
  const values = form.getValues();
  const sale = sales.find((s) => s.value === values.sale);
  const money = (value: number) => formatMoney(value, sale?.currency ?? 'USD');
  // A refusal that names no field (422 REVERSAL_EXCEEDS_SALE, 409 CONFLICT, 403) is said above the buttons, as the API words it.
  const refusal = reverse.error && !(reverse.error instanceof ApiError && reverse.error.issues.length > 0) ? reverse.error : null;
  return (
    <form onSubmit={form.onSubmit((v) => reverse.mutate(v))} noValidate aria-label="Reverse a sale">
      <Stack>
        <Text size="sm" c="dimmed">
          A refund, chargeback or cancellation of the sale. Each reward of it follows: a percentage reward shrinks with what is left of the sale, a fixed one is
          taken back only in full, and one paid already is owed back by its owner.
        </Text>
        <Select
          label="Sale"
          required
          allowDeselect={false}
          data={sales.map((s) => ({ value: s.value, label: s.label }))}
          {...form.getInputProps('sale')}
          onChange={(v) => {
            form.setFieldValue('sale', v ?? OWN_SALE);
            // A sale without an amount is reversed in full only.
            if (sales.find((s) => s.value === v)?.left === null) form.setFieldValue('scope', 'FULL');
          }}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500} id={scopeLabel}>
            How much
          </Text>
          <SegmentedControl
            aria-labelledby={scopeLabel}
            data={[
              { value: 'FULL', label: 'Full' },
              { value: 'PARTIAL', label: 'Partial', disabled: sale?.left === null },
            ]}
            {...form.getInputProps('scope')}
          />
          {values.scope === 'FULL' && sale && (
            <Text size="xs" c="dimmed">
              {sale.left === null ? 'All of the sale: it was recorded without an amount.' : `All that is left of the sale: ${money(sale.left)}.`}
            </Text>
          )}
        </Stack>
        {values.scope === 'PARTIAL' && sale && sale.left !== null && (
          <NumberInput
            label="Amount"
            required
            description={`At most ${money(sale.left)}: what is left of the sale`}
            min={0}
            max={sale.left}
            clampBehavior="none"
            decimalScale={currencyDigits(sale.currency)}
            leftSection={
              <Text size="xs" c="dimmed">
                {sale.currency}
              </Text>
            }
            leftSectionWidth={44}
            {...form.getInputProps('amount')}
          />
        )}
        <Select label="Reason" required placeholder="Pick a reason" data={REVERSAL_REASONS} {...form.getInputProps('reason')} />
        <Textarea
          label="Note"
          description="Why, for whoever reads it later: kept on the reversal and on the rewards it cancels."
          autosize
          minRows={2}
          maxLength={2000}
          {...form.getInputProps('note')}
        />
        {refusal && (
          <Alert color="red" role="alert" title="Not reversed">
            {errorMessage(refusal)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color="red" loading={reverse.isPending}>
            {values.scope === 'PARTIAL' ? 'Reverse part of the sale' : 'Reverse in full'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Reverses a conversion's sale or one of its purchases (POST
 * /conversions/{conversionId}/reversals: a MANAGER's or OWNER's change,
 * audited), then says what happened to each reward.
 */
export function ReverseModal({
  opened,
  onClose,
  conversion,
  purchases,
}: {
  opened: boolean;
  onClose: () => void;
  conversion: Pick<Conversion, 'conversionId' | 'status' | 'amount' | 'reversedAmount' | 'currency'>;
  purchases: readonly Purchase[];
}) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const sales = reversibleSales(conversion, purchases);
  const close = () => {
    setOutcome(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={outcome ? 'What the reversal did' : 'Reverse a sale'} centered size="lg">
      {outcome ? (
        <ReversalOutcome outcome={outcome} onDone={close} />
      ) : sales.length === 0 ? (
        <Text size="sm">Nothing of this conversion is left to reverse: its sale and its purchases are reversed in full.</Text>
      ) : (
        <ReversalForm conversion={conversion} sales={sales} onCancel={close} onReversed={setOutcome} />
      )}
    </Modal>
  );
}
