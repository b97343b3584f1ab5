import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError, errorMessage, ok } from '../../api/api-error';
import type { Payout } from '../../api/types';
import { useApi } from '../../api/use-api';
import { countOf, formatMoney } from '../../ui/format';
import { useChange } from '../../ui/use-change';
import { PAYOUT_QUERIES } from './payout-words';

/** How a PENDING payout ends: the transfer went out (with its reference), or it failed (with why). */
export type PayoutEnd = 'PAID' | 'FAILED';

const MAX = { PAID: 200, FAILED: 500 } as const;

const WORDS = {
  PAID: { title: 'Mark payout paid', verb: 'Mark paid', field: 'Transfer reference', description: 'The reference of the transfer in your bank or payment system.' },
  FAILED: { title: 'Mark payout failed', verb: 'Mark failed', field: 'Reason', description: 'Why the transfer failed; kept on the payout.' },
} as const;

/** What marking a payout so does, said before it is confirmed. */
function consequence(end: PayoutEnd, p: Payout): string {
  const money = formatMoney(p.amount, p.currency);
  const rewards = countOf(p.rewardCount, 'rewards');
  return end === 'PAID'
    ? `Record that ${money} was sent to ${p.userId}: its ${rewards} become paid${p.clawbackCount > 0 ? ' and the clawbacks it deducts are settled' : ''}. This cannot be undone.`
    : `Record that the transfer of ${money} to ${p.userId} failed: its ${rewards}${p.clawbackCount > 0 ? ' and clawbacks' : ''} are due again, and the next payout includes them. This cannot be undone.`;
}

/**
 * Ends a PENDING payout (POST /payouts/{payoutId}/paid or /failed: a
 * MANAGER's or OWNER's change, audited) once the operator gave the
 * reference or the reason and confirmed; the API's refusal (409
 * INVALID_TRANSITION when it is no longer PENDING) is said in the dialog.
 */
export function PayoutTransitionDialog({ end, payout, onClose }: { end: PayoutEnd | null; payout: Payout; onClose: () => void }) {
  const api = useApi();
  const form = useForm<{ text: string }>({
    initialValues: { text: '' },
    validate: { text: (v) => (!v.trim() ? 'Required' : [...v.trim()].length > MAX[end ?? 'PAID'] ? `At most ${MAX[end ?? 'PAID']} characters` : null) },
  });
  const close = () => {
    form.reset();
    change.reset();
    onClose();
  };
  const change = useChange({
    mutationFn: ({ kind, text }: { kind: PayoutEnd; text: string }) => {
      const params = { params: { path: { payoutId: payout.id } } };
      return kind === 'PAID'
        ? ok(api.POST('/api/v1/payouts/{payoutId}/paid', { ...params, body: { externalReference: text } })).then((d) => d.payout)
        : ok(api.POST('/api/v1/payouts/{payoutId}/failed', { ...params, body: { reason: text } })).then((d) => d.payout);
    },
    invalidates: PAYOUT_QUERIES,
    success: (p) => (p.status === 'PAID' ? `Payout of ${formatMoney(p.amount, p.currency)} to ${p.userId} marked paid.` : `Payout to ${p.userId} marked failed: its rewards are due again.`),
    form,
    // The API names the field externalReference or reason: the dialog has one.
    fieldOf: () => 'text',
    refusalsShownInForm: true,
    onSuccess: close,
  });
  const words = end ? WORDS[end] : null;
  // A refusal that names no field (409 INVALID_TRANSITION, 403) is said above the buttons, as the API words it.
  const refusal = change.error && !(change.error instanceof ApiError && change.error.issues.length > 0) ? change.error : null;
  return (
    <Modal opened={end !== null} onClose={close} title={words?.title ?? ''} centered>
      {end && words && (
        <form onSubmit={form.onSubmit((v) => change.mutate({ kind: end, text: v.text.trim() }))} noValidate aria-label={words.title}>
          <Stack>
            <Text size="sm">{consequence(end, payout)}</Text>
            {end === 'FAILED' ? (
              <Textarea label={words.field} description={words.description} required autosize minRows={2} maxLength={MAX[end]} data-autofocus {...form.getInputProps('text')} />
            ) : (
              <TextInput label={words.field} description={words.description} required maxLength={MAX[end]} data-autofocus {...form.getInputProps('text')} />
            )}
            {refusal && (
              <Alert color="red" role="alert" title="Not changed">
                {errorMessage(refusal)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Back
              </Button>
              <Button type="submit" color={end === 'FAILED' ? 'red' : 'teal'} loading={change.isPending}>
                {words.verb}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
