import { Alert, Code, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError, errorMessage, ok } from '../../api/api-error';
import { useOperationKey } from '../../api/operation-key';
import type { Body, EventReversal, IncentiveTransaction } from '../../api/types';
import { useApi } from '../../api/use-api';
import { FormModal } from '../../ui/form-modal';
import { formatAmounts } from '../../ui/format';
import { useChange } from '../../ui/use-change';
import { ledgerNotes } from './ledger-notes';

export interface ReverseEventValues {
  reason: string;
}

/** POST /incentives/events/{eventId}/reverse: the reason trimmed, left out when empty. */
export function reverseEventRequest(values: ReverseEventValues): Body<'/api/v1/incentives/events/{eventId}/reverse', 'post'> {
  const reason = values.reason.trim();
  return reason ? { reason } : {};
}

/** Whether a ledger entry is an event's reward, which an operator may reverse (its sourceId is the event id). */
export function isEventReward(entry: Pick<IncentiveTransaction, 'reason'>): boolean {
  return entry.reason === 'ACTION_REWARD';
}

/** The events the listed entries already took back: the sourceId of each REVERSAL entry (an event's or a referral credit's). */
export function reversedSources(entries: ReadonlyArray<Pick<IncentiveTransaction, 'reason' | 'sourceId'>>): Set<string> {
  return new Set(entries.filter((e) => e.reason === 'REVERSAL').map((e) => e.sourceId));
}

/** What a reversal did, in words: its change and its notes (`−120 XP · pending −50 coins`). */
export function reversalText(transaction: IncentiveTransaction): string {
  const change = formatAmounts(transaction, { signed: true });
  return [change === 'nothing' ? null : change, ...ledgerNotes(transaction)].filter(Boolean).join(' · ') || 'nothing to take back';
}

type Outcome = EventReversal & { replayed: boolean };

/**
 * Takes back what an event earned (a MANAGER's or OWNER's change, audited):
 * a pending credit is cancelled, available coins and tokens are debited and
 * what was spent becomes a debt. A retry of the same reversal (after a
 * failure without an answer) sends the same Idempotency-Key; an event
 * reversed before is answered with that reversal (200), nothing changed.
 */
export function ReverseEventModal({ userId, eventId, onClose }: { userId: string; eventId: string | null; onClose: () => void }) {
  const api = useApi();
  const operation = useOperationKey();
  const form = useForm<ReverseEventValues>({ initialValues: { reason: '' } });
  const reverse = useChange({
    mutationFn: async ({ eventId: id, values }: { eventId: string; values: ReverseEventValues }): Promise<Outcome> => {
      const body = reverseEventRequest(values);
      let status = 0;
      const answer = await ok(
        api
          .POST('/api/v1/incentives/events/{eventId}/reverse', {
            // The key follows the event too: the same reason for another event is another operation.
            params: { path: { eventId: id }, header: { 'Idempotency-Key': operation.keyFor({ eventId: id, ...body }) } },
            body,
          })
          .then((a) => {
            status = a.response.status;
            return a;
          }),
      );
      return { ...answer, replayed: status === 200 };
    },
    // The balance, the ledger and the level move; so may the boards.
    invalidates: [['user', userId], ['leaderboard']],
    success: (r, { eventId: id }) => (r.replayed ? `Event ${id} was reversed before: nothing changed.` : `Event ${id} reversed: ${reversalText(r.transaction)}.`),
    form,
    refusalsShownInForm: true,
    onSuccess: () => {
      operation.done();
      form.reset();
      onClose();
    },
    onError: operation.failed,
  });
  // A refusal without fields (422 EVENT_NOT_REWARDED, 404, 403) is said above the form.
  const refusal = reverse.error instanceof ApiError && reverse.error.issues.length === 0 ? reverse.error : null;
  const close = () => {
    reverse.reset();
    form.reset();
    onClose();
  };
  return (
    <FormModal
      opened={eventId !== null}
      onClose={close}
      title="Reverse event"
      form={form}
      onSubmit={(values) => eventId && reverse.mutate({ eventId, values })}
      submitLabel="Reverse event"
      submitting={reverse.isPending}
      size="md"
    >
      <Text size="sm">
        Takes back what event <Code>{eventId}</Code> of {userId} earned: a credit still pending is cancelled; coins and tokens already available are debited, and what
        was spent becomes a debt the next credits repay. Its XP is taken back; levels reached and what they gave stay. Recorded in the audit log.
      </Text>
      {refusal && (
        <Alert color="red" role="alert" title="Not reversed">
          {errorMessage(refusal)}
        </Alert>
      )}
      <Textarea label="Reason" description="Optional: kept with the reversal in the ledger." autosize minRows={2} maxLength={500} data-autofocus {...form.getInputProps('reason')} />
    </FormModal>
  );
}
