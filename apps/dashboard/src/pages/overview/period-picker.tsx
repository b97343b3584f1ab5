import { Group, Text, TextInput } from '@mantine/core';
import { SegmentedField } from '../../ui/segmented-field';
import { PERIODS, customRange, type PeriodDays } from './overview-figures';

export interface PeriodChoice {
  /** A preset (the last 7, 30 or 90 days), or null for a custom period. */
  days: PeriodDays | null;
  /** The custom period's first and last day (UTC), `YYYY-MM-DD`. */
  from: string | null;
  to: string | null;
}

/**
 * The overview's period: the presets, or a custom period of whole UTC days
 * (both days included, at most a year), told what is wrong with it while it
 * is not a period yet.
 */
export function PeriodPicker({ value, onChange }: { value: PeriodChoice; onChange: (next: PeriodChoice) => void }) {
  const custom = value.days === null;
  const checked = custom ? customRange(value.from, value.to) : null;
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <SegmentedField
        label="Period"
        value={custom ? 'custom' : String(value.days)}
        onChange={(v) => onChange(v === 'custom' ? { days: null, from: value.from, to: value.to } : { days: Number(v) as PeriodDays, from: null, to: null })}
        data={[...PERIODS.map((d) => ({ value: String(d), label: `${d} days` })), { value: 'custom', label: 'Custom' }]}
      />
      {custom && (
        <>
          <TextInput type="date" label="First day (UTC)" value={value.from ?? ''} onChange={(e) => onChange({ ...value, from: e.currentTarget.value || null })} w={170} />
          <TextInput type="date" label="Last day (UTC)" value={value.to ?? ''} onChange={(e) => onChange({ ...value, to: e.currentTarget.value || null })} w={170} />
          {checked && 'problem' in checked && (
            <Text size="sm" c="red" role="alert">
              {checked.problem}
            </Text>
          )}
        </>
      )}
    </Group>
  );
}
