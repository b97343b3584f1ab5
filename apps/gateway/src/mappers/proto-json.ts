import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/** Proto Timestamp → ISO 8601 UTC with milliseconds, or null when unset. */
export function isoTime(ts: Timestamp | undefined): string | null {
  return ts ? timestampDate(ts).toISOString() : null;
}
