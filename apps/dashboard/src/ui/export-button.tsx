import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { errorMessage, ok } from '../api/api-error';
import type { paths } from '../api/schema';
import { useApi } from '../api/use-api';

/** The API's CSV exports (GET …/export): the list's filters in, a file out. */
type ExportPath = Extract<keyof paths, `${string}/export`>;

/** The file name the server gives (Content-Disposition), or a plain one. */
const fileNameOf = (response: Response) => /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';

/**
 * Downloads a list as CSV with the filters the page shows. The session's
 * calls carry X-App-Id, which a plain link cannot send, so the file is
 * fetched through the API client and handed to the browser to save; a
 * refusal shows the API's message.
 */
export function ExportButton({ path, query, pathParams, label }: { path: ExportPath; query?: Record<string, string | number>; pathParams?: Record<string, string>; label: string }) {
  const api = useApi();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      // openapi-fetch types each path's own parameters; every export takes its list's filters, checked by the server.
      const get = api.GET as unknown as (path: string, init: object) => Promise<{ data?: Blob; error?: unknown; response: Response }>;
      const call = get(path, { params: { query, path: pathParams }, parseAs: 'blob' });
      const [blob, { response }] = await Promise.all([ok(call), call]);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response);
      document.body.appendChild(link);
      link.click();
      link.remove();
      URL.revokeObjectURL(url);
    } catch (err) {
      notifications.show({ color: 'red', title: 'Export failed', message: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" onClick={() => void download()} loading={busy} aria-label={label}>
      Export CSV
    </Button>
  );
}
