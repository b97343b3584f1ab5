import { SegmentedControl, Stack, Text } from '@mantine/core';
import { useId } from 'react';

/** A choice among a few views (a period, a status), labelled like a form field. */
export function SegmentedField<V extends string>({
  label,
  value,
  onChange,
  data,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  data: ReadonlyArray<{ value: V; label: string }>;
}) {
  const id = useId();
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id={id}>
        {label}
      </Text>
      <SegmentedControl aria-labelledby={id} value={value} onChange={(v) => onChange(v as V)} data={[...data]} />
    </Stack>
  );
}
