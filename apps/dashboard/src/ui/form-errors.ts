import type { UseFormReturnType } from '@mantine/form';
import { ApiError } from '../api/api-error';
import { notifyError } from '../app/query-client';

function hasPath(values: unknown, path: string): boolean {
  let at: unknown = values;
  for (const part of path.split('.')) {
    if (typeof at !== 'object' || at === null || !(part in at)) return false;
    at = (at as Record<string, unknown>)[part];
  }
  return true;
}

/**
 * Puts the API's field errors (`error.details.issues[].field`) on the form's
 * fields of the same path; whatever the form has no field for is told in a
 * notification. Returns whether the error was about fields (and so has been shown).
 */
export function applyFieldErrors<V>(form: UseFormReturnType<V>, err: unknown, fieldOf: (apiField: string) => string = (f) => f): boolean {
  if (!(err instanceof ApiError) || err.issues.length === 0) return false;
  const values = form.getValues();
  const unplaced: string[] = [];
  for (const issue of err.issues) {
    const field = fieldOf(issue.field);
    if (hasPath(values, field)) form.setFieldError(field, issue.message);
    else unplaced.push(`${issue.field}: ${issue.message}`);
  }
  if (unplaced.length > 0) notifyError(new ApiError(err.status, err.code, unplaced.join('; '), err.requestId, [], null));
  return true;
}
