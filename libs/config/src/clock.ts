import { readFileSync, statSync } from 'node:fs';

/**
 * RIS_TEST_CLOCK_FILE, a setting for tests only: a file holding a number of
 * milliseconds the services' clock runs ahead of the wall clock, so a test
 * moves time (a holding period of 30 days passes) by writing the file,
 * never by sleeping and without restarting anything. Every service reads
 * time that rules depend on (holds, windows, expiry) through now().
 *
 * Unset (always, outside tests) now() is `new Date()` and nothing else. Set,
 * the file is read again when it changed (its mtime), at most every 50 ms.
 */
const clockFile = process.env.RIS_TEST_CLOCK_FILE ?? '';

let offsetMs = 0;
let checkedAt = 0;
let seenMtime = -1;

function currentOffset(): number {
  const at = Date.now();
  if (at - checkedAt < 50) return offsetMs;
  checkedAt = at;
  try {
    const mtime = statSync(clockFile).mtimeMs;
    if (mtime !== seenMtime) {
      seenMtime = mtime;
      const value = Number(readFileSync(clockFile, 'utf8').trim());
      offsetMs = Number.isFinite(value) ? value : 0;
    }
  } catch {
    // No file yet: the wall clock.
    offsetMs = 0;
  }
  return offsetMs;
}

/** The time rules are decided by: the wall clock, or a test's moved clock. */
export function now(): Date {
  return clockFile ? new Date(Date.now() + currentOffset()) : new Date();
}
