/**
 * RIS_CRASH_AT, a setting for fault-injection tests only: the name of a
 * point in the code (e.g. `referral.created`, right after the write that
 * stores a new referral) where the process kills itself with SIGKILL, as a
 * crash or an OOM kill would, so a test can prove that what was written
 * before that point is finished after a restart (its events published).
 *
 * Read once when the process starts. Unset (always, outside tests) every
 * point is one comparison and nothing else.
 */
const crashAt = process.env.RIS_CRASH_AT ?? '';

export function crashPoint(name: string): void {
  if (crashAt === name) process.kill(process.pid, 'SIGKILL');
}
