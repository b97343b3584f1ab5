import { ActionIcon } from '@mantine/core';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { useState } from 'react';

/** How a date-time field shows and takes a time: the operator's own, to the minute. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

function CalendarIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M3 11h18" />
    </svg>
  );
}

/**
 * A date and time typed as `YYYY-MM-DD HH:mm` (the operator's time), or its
 * day picked in a calendar opened by the button at its end (`pickLabel`).
 * Typing never opens the calendar, so nothing covers the rest of the form
 * while a time is typed; picking a day closes it (and keeps the time typed). The value is the
 * `YYYY-MM-DD HH:mm:ss` string Mantine's date inputs give (null when empty).
 */
export function DateTimeInput({ pickLabel, onChange, onKeyDown, ...props }: Omit<DateInputProps, 'withTime' | 'valueFormat' | 'popoverProps' | 'rightSection'> & { pickLabel: string }) {
  const [picking, setPicking] = useState(false);
  return (
    <DateInput
      placeholder={DATE_TIME_FORMAT}
      {...props}
      withTime
      valueFormat={DATE_TIME_FORMAT}
      onChange={(value) => {
        // A day picked in the calendar keeps the time already typed (the calendar gives midnight).
        const typed = typeof props.value === 'string' ? props.value : null;
        onChange?.(picking && value && typed && typed.length > 10 ? `${value.slice(0, 10)} ${typed.slice(11)}` : value);
        setPicking(false);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setPicking(false);
        onKeyDown?.(event);
      }}
      // Inside the dialog that holds the form, so the dialog's focus trap covers the calendar.
      popoverProps={{ opened: picking, onDismiss: () => setPicking(false), withinPortal: false }}
      rightSection={
        <ActionIcon
          variant="subtle"
          color="gray"
          // Not a click outside the calendar (which would close it before this toggles it).
          onMouseDown={(event) => {
            event.preventDefault();
            event.stopPropagation();
          }}
          onClick={() => setPicking((open) => !open)}
          aria-label={pickLabel}
          aria-expanded={picking}
          disabled={props.disabled || props.readOnly}
        >
          <CalendarIcon />
        </ActionIcon>
      }
    />
  );
}
