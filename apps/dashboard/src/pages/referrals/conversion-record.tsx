import { Text } from '@mantine/core';
import type { Conversion } from '../../api/types';
import { formatMoney } from '../../ui/format';

/**
 * A record's reward as the list shows it, in its currency: a rejected conversion's was cancelled, and a reversed one's
 * (refunded in full) cancelled or owed back; each says so.
 */
export function RecordReward({ record }: { record: Pick<Conversion, 'status' | 'rewardAmount' | 'currency'> }) {
  const reward = formatMoney(record.rewardAmount, record.currency);
  if (record.status !== 'REJECTED' && record.status !== 'REVERSED') return <>{reward}</>;
  return (
    <Text size="sm" c="dimmed" td="line-through" aria-label={`${reward}, ${record.status === 'REJECTED' ? 'cancelled' : 'reversed'}`}>
      {reward}
    </Text>
  );
}

/** A conversion's sale, in its currency, with what reversals (refunds, chargebacks) took off it. */
export function RecordSale({ record }: { record: Pick<Conversion, 'amount' | 'reversedAmount' | 'currency'> }) {
  if (record.amount === null) return <>—</>;
  const sale = formatMoney(record.amount, record.currency);
  if (!(record.reversedAmount > 0)) return <>{sale}</>;
  return (
    <>
      {sale}
      <Text size="xs" c="dimmed">
        {formatMoney(record.reversedAmount, record.currency)} reversed
      </Text>
    </>
  );
}

/** Whether a record is a conversion (PENDING and CLICKED ones are funnel records, not converted yet). */
export const isConverted = (record: Pick<Conversion, 'status'>) => record.status !== 'PENDING' && record.status !== 'CLICKED';
