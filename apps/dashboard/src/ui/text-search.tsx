import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';

/**
 * One field typed freely and applied when sent (Enter or the button), so a
 * list is not read again at each key: the value goes to the URL by `onSearch`
 * ('' → null, which clears the filter).
 */
export function TextSearch({
  label,
  initial,
  onSearch,
  submitLabel = 'Filter',
  formLabel,
  placeholder,
  width = 200,
}: {
  label: string;
  initial: string | null;
  onSearch: (value: string | null) => void;
  submitLabel?: string;
  /** The search form's accessible name. */
  formLabel: string;
  placeholder?: string;
  width?: number;
}) {
  const [value, setValue] = useState(initial ?? '');
  return (
    <form
      role="search"
      aria-label={formLabel}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(value.trim() || null);
      }}
    >
      <Group align="flex-end" gap="xs">
        <TextInput label={label} placeholder={placeholder} value={value} onChange={(e) => setValue(e.currentTarget.value)} w={{ base: '100%', xs: width }} />
        <Button type="submit" variant="light">
          {submitLabel}
        </Button>
      </Group>
    </form>
  );
}
