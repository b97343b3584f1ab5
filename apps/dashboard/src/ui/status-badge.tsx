import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  ACTIVE: 'green',
  COMPLETED: 'green',
  CONVERTED: 'green',
  APPROVED: 'green',
  PAID: 'teal',
  SUCCEEDED: 'green',
  FULFILLED: 'green',
  RUNNING: 'blue',
  SCHEDULED: 'blue',
  EXPIRED: 'gray',
  PENDING: 'gray',
  CLICKED: 'blue',
  OPEN: 'orange',
  FLAGGED: 'orange',
  PAUSED: 'yellow',
  REJECTED: 'red',
  REVERSED: 'red',
  CANCELLED: 'red',
  FAILED: 'red',
  ENDED: 'gray',
  // What a Stripe event became.
  MATCHED: 'green',
  UNMATCHED: 'orange',
  IGNORED: 'gray',
  WAITING: 'blue',
  REFUSED: 'red',
  RECEIVED: 'blue',
};

/** A status of the API in words, coloured by what it means for the operator. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {status.toLowerCase().replace(/_/g, ' ')}
    </Badge>
  );
}
