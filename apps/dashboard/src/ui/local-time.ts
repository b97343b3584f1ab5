// A `datetime-local` field shows and takes the operator's own time; the URL and the API hold instants.

/** A `datetime-local` field's value (the operator's time) as the instant the API takes; '' → null. */
export function instantOf(local: string): string | null {
  if (!local) return null;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** An instant of the URL as a `datetime-local` field shows it, in the operator's time. */
export function localOf(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}
