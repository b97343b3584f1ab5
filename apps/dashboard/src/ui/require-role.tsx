import type { ReactNode } from 'react';
import type { Role } from '../api/types';
import { useAllows } from '../session/session-context';
import { Empty } from './query-state';

/** A page only some roles open: the others are told why instead. */
export function RequireRole({ least, children }: { least: Role; children: ReactNode }) {
  if (useAllows(least)) return <>{children}</>;
  return <Empty title="Not allowed" description={`This page is for the app's ${least.toLowerCase()}s.`} />;
}
