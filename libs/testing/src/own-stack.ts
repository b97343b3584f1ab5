import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
// Types only: the end-to-end global set-up loads this file by its path (Jest
// maps no @ris/* alias there) and the benchmarks bundle it on its own.
import type { StackOptions } from '@ris/stack';

/** A run's name: the prefix, the time and a random suffix (lower case, no dots). */
export const runName = (prefix: string) => `${prefix}${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;

/** What a stack of its own takes from its caller; ownStackOptions names the rest after the run. */
export type OwnStackOptions = Omit<StackOptions, 'adminToken' | 'secretsKeys' | 'dbPrefix' | 'eventsStream' | 'eventsSubjectPrefix' | 'redisKeyPrefix' | 'ports' | 'logDir'>;

/**
 * Settings of a stack of its own, for the end-to-end tests and the
 * benchmarks: databases <run>_<service>, stream <RUN>_DOMAIN on subjects
 * <run>_domain.*, Redis keys <run>:*, free ports, a random admin token, a
 * random master key for secrets at rest and logs in .run/<logs>/<run>, so it
 * shares nothing with another stack on the same infrastructure.
 */
export function ownStackOptions(run: string, logs: 'e2e-logs' | 'bench-logs', options: OwnStackOptions): StackOptions {
  return {
    ...options,
    adminToken: randomBytes(24).toString('hex'),
    // The SECRETS_KEYS format (libs/secrets), written here: this file imports no @ris/* code (see above).
    secretsKeys: `run1:${randomBytes(32).toString('base64')}`,
    dbPrefix: `${run}_`,
    eventsStream: `${run.toUpperCase()}_DOMAIN`,
    eventsSubjectPrefix: `${run}_domain`,
    redisKeyPrefix: `${run}:`,
    ports: 'free',
    logDir: join(options.root, '.run', logs, run),
  };
}
