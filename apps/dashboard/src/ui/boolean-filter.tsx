import { Select } from '@mantine/core';

/** A yes/no filter of the URL (`'true'`, `'false'`, or none) as the API's boolean query. */
export function booleanOf(value: string | null): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** Filters a list by a yes/no field (published, enabled), or not at all. */
export function BooleanFilter({
  label,
  placeholder,
  words,
  value,
  onChange,
}: {
  label: string;
  placeholder: string;
  /** The field's two values in words, yes then no: `['Published', 'Unpublished']`. */
  words: readonly [string, string];
  value: string | null;
  onChange: (value: string | null) => void;
}) {
  return (
    <Select
      label={label}
      placeholder={placeholder}
      clearable
      data={[
        { value: 'true', label: words[0] },
        { value: 'false', label: words[1] },
      ]}
      value={value}
      onChange={onChange}
      w={{ base: '100%', xs: 200 }}
    />
  );
}
