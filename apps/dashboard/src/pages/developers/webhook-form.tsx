import { Button, MultiSelect, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import type { WebhookEvent } from '../../api/types';
import { EVENT_SELECT_DATA } from './webhook-events';

export interface WebhookFormValues {
  url: string;
  description: string;
  events: WebhookEvent[];
}

export const webhookValidation = {
  url: (v: string) => (/^https?:\/\/\S+$/.test(v.trim()) ? null : 'An http(s) URL'),
};

/** POST /webhooks: an empty description is left out. */
export function createWebhookRequest(values: WebhookFormValues) {
  const description = values.description.trim();
  return { url: values.url.trim(), events: values.events, ...(description ? { description } : {}) };
}

/** PATCH /webhooks/{id}: the events replace the list; an emptied description is removed (null). */
export function updateWebhookRequest(values: WebhookFormValues) {
  const description = values.description.trim();
  return { url: values.url.trim(), events: values.events, description: description || null };
}

export function WebhookForm({ form, submitLabel, submitting, onSubmit }: { form: UseFormReturnType<WebhookFormValues>; submitLabel: string; submitting: boolean; onSubmit: (v: WebhookFormValues) => void }) {
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <TextInput label="URL" placeholder="https://example.com/webhooks" required type="url" {...form.getInputProps('url')} />
        <TextInput label="Description" maxLength={500} {...form.getInputProps('description')} />
        <MultiSelect
          label="Events"
          description="None chosen: every event, including those added later."
          data={EVENT_SELECT_DATA}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Clear the events' }}
          // Inside the dialog that holds the form, so the dialog's focus trap and labels cover the options.
          comboboxProps={{ withinPortal: false }}
          {...form.getInputProps('events')}
        />
        <Button type="submit" loading={submitting}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
