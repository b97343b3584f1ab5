import { Alert, Button, NumberInput, SimpleGrid, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { ApiError, errorMessage, ok } from '../../api/api-error';
import type { Body } from '../../api/types';
import { useOperationKey } from '../../api/operation-key';
import { useApi } from '../../api/use-api';
import { RoleGate } from '../../session/session-context';
import { FormModal } from '../../ui/form-modal';
import { formatAmounts } from '../../ui/format';
import { useChange } from '../../ui/use-change';

export interface AdjustmentValues {
  coins: number | string;
  tokens: number | string;
  xp: number | string;
  note: string;
}

const EMPTY: AdjustmentValues = { coins: '', tokens: '', xp: '', note: '' };
const SIGNED = { min: -1_000_000_000, max: 1_000_000_000, allowDecimal: false, thousandSeparator: ',' } as const;
const signed = (value: number | string) => (value === '' || value === '-' ? 0 : Number(value));

/** POST …/adjustments: the amounts that move (zeros left out) and the note. */
export function adjustmentRequest(values: AdjustmentValues): Body<'/api/v1/incentives/balances/{userId}/adjustments', 'post'> {
  const amounts = { coins: signed(values.coins), tokens: signed(values.tokens), xp: signed(values.xp) };
  return { ...Object.fromEntries(Object.entries(amounts).filter(([, v]) => v !== 0)), note: values.note.trim() };
}

/**
 * A manual credit or debit of a user's coins, tokens or XP with its reason
 * (OWNER, MANAGER): one ledger entry, in the audit log; a debit below zero is
 * refused with the API's message. A retry of the same adjustment (after a
 * failure without an answer) sends the same Idempotency-Key, so it applies once.
 */
export function AdjustBalance({ userId }: { userId: string }) {
  const api = useApi();
  const [opened, { open, close }] = useDisclosure(false);
  // A retry of the same adjustment (after a failure without an answer) sends the same Idempotency-Key.
  const operation = useOperationKey();
  const form = useForm<AdjustmentValues>({
    initialValues: EMPTY,
    validate: {
      note: (v) => (v.trim() ? null : 'Say why: it is kept in the ledger and the audit log'),
      coins: (_v, values) => (Object.keys(adjustmentRequest(values)).length > 1 ? null : 'Change at least one of coins, tokens or XP'),
    },
  });
  const adjust = useChange({
    mutationFn: (values: AdjustmentValues) => {
      const body = adjustmentRequest(values);
      return ok(api.POST('/api/v1/incentives/balances/{userId}/adjustments', { params: { path: { userId }, header: { 'Idempotency-Key': operation.keyFor(body) } }, body }));
    },
    invalidates: [['user', userId], ['leaderboard']],
    success: (answer) => `${userId} adjusted: ${formatAmounts(answer.transaction, { signed: true })}.`,
    form,
    refusalsShownInForm: true,
    onSuccess: () => {
      operation.done();
      form.reset();
      close();
    },
    onError: operation.failed,
  });
  // A refusal without fields (422 INSUFFICIENT_BALANCE, 403) is said above the form.
  const refusal = adjust.error instanceof ApiError && adjust.error.issues.length === 0 ? adjust.error : null;
  return (
    <RoleGate least="MANAGER">
      <Button variant="light" onClick={open}>
        Adjust balance
      </Button>
      <FormModal opened={opened} onClose={close} title={`Adjust the balance of ${userId}`} form={form} onSubmit={(v) => adjust.mutate(v)} submitLabel="Adjust" submitting={adjust.isPending} size="md">
        <Text size="sm" c="dimmed">
          Positive amounts credit, negative ones debit. The adjustment is one entry of the ledger, and is recorded in the audit log.
        </Text>
        {refusal && (
          <Alert color="red" role="alert" title="Not adjusted">
            {errorMessage(refusal)}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, xs: 3 }}>
          <NumberInput label="Coins" {...SIGNED} {...form.getInputProps('coins')} />
          <NumberInput label="Tokens" {...SIGNED} {...form.getInputProps('tokens')} />
          <NumberInput label="XP" {...SIGNED} {...form.getInputProps('xp')} />
        </SimpleGrid>
        <Textarea label="Reason" required autosize minRows={2} maxLength={500} {...form.getInputProps('note')} />
      </FormModal>
    </RoleGate>
  );
}
