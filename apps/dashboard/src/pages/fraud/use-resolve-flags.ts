import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage, ok } from '../../api/api-error';
import { useApi, useAppId } from '../../api/use-api';

export type Decision = 'APPROVE' | 'REJECT';

/**
 * Resolves flags with one decision and note: one POST /fraud/flags/{id}/resolve
 * per flag (the API's resolve, so a rejection cancels the held rewards), all
 * sent at once; the outcome of each is told, and the lists are read again.
 */
export function useResolveFlags() {
  const api = useApi();
  const appId = useAppId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, decision, note }: { ids: string[]; decision: Decision; note: string }) => {
      const body = note.trim() ? { decision, note: note.trim() } : { decision };
      const results = await Promise.allSettled(ids.map((flagId) => ok(api.POST('/api/v1/fraud/flags/{flagId}/resolve', { params: { path: { flagId } }, body }))));
      const failed = results.flatMap((r, i) => (r.status === 'rejected' ? [{ id: ids[i]!, error: r.reason as unknown }] : []));
      return { done: ids.length - failed.length, failed, decision };
    },
    onSuccess: ({ done, failed, decision }) => {
      const verb = decision === 'APPROVE' ? 'approved' : 'rejected';
      if (done > 0) notifications.show({ color: 'green', message: `${done} flag${done === 1 ? '' : 's'} ${verb}.` });
      for (const f of failed) notifications.show({ color: 'red', title: `Flag ${f.id} not ${verb}`, message: errorMessage(f.error), autoClose: 10_000 });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['app', appId, 'fraud'] }),
  });
}
