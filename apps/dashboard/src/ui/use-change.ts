import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAppId } from '../api/use-api';
import { notifyError } from '../app/query-client';
import { applyFieldErrors } from './form-errors';

/**
 * A change sent to the API: on success it says so and reads again the
 * app's queries under each of `invalidates` (`['catalog']` reads
 * `['app', appId, 'catalog', …]` again). A form's change shows the API's
 * field errors on its fields; every other error is a notification.
 */
export function useChange<V, R, F = unknown>({
  mutationFn,
  invalidates,
  success,
  form,
  fieldOf,
  refusalsShownInForm = false,
  onSuccess,
  onError,
}: {
  mutationFn: (variables: V) => Promise<R>;
  invalidates: ReadonlyArray<readonly string[]>;
  success?: (result: R, variables: V) => string;
  form?: UseFormReturnType<F>;
  /** The form field an API field is edited in, when their names differ. */
  fieldOf?: (apiField: string) => string;
  /** The form shows the errors that are not about a field itself (an alert above it), so no notification. */
  refusalsShownInForm?: boolean;
  onSuccess?: (result: R, variables: V) => void;
  onError?: (err: Error) => void;
}) {
  const appId = useAppId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { errorsShownInForm: form !== undefined },
    onSuccess: (result, variables) => {
      if (success) notifications.show({ color: 'green', message: success(result, variables) });
      onSuccess?.(result, variables);
    },
    onError: (err) => {
      onError?.(err);
      if (form && !applyFieldErrors(form, err, fieldOf) && !refusalsShownInForm) notifyError(err);
    },
    onSettled: () => Promise.all(invalidates.map((key) => queryClient.invalidateQueries({ queryKey: ['app', appId, ...key] }))),
  });
}
