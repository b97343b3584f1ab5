import type { Connection } from 'mongoose';
import { createLogger, type Logger } from '@ris/logging';
import { connectMongo } from '@ris/mongo';

export interface MaintenanceArgs {
  appId?: string;
  /** Write (repair, move); false: only read and report. */
  fix: boolean;
}

/**
 * `[--app <appId>] [--fix]`, the arguments of the rebuild commands (they
 * only read unless --fix), or with `writes: 'unless-check'`
 * `[--app <appId>] [--check]` for a command whose job is the write (it
 * only reads with --check). Prints the usage and exits on --help (0) or on
 * --app without an id (2).
 */
export function maintenanceArgs(
  command: string,
  argv: string[] = process.argv.slice(2),
  writes: 'with-fix' | 'unless-check' = 'with-fix',
): MaintenanceArgs {
  const appIndex = argv.indexOf('--app');
  const next = appIndex !== -1 ? argv[appIndex + 1] : undefined;
  const appId = next && !next.startsWith('--') ? next : undefined;
  if (argv.includes('--help') || (appIndex !== -1 && !appId)) {
    process.stdout.write(`usage: ${command} [--app <appId>] ${writes === 'with-fix' ? '[--fix]' : '[--check]'}\n`);
    process.exit(appIndex !== -1 && !appId ? 2 : 0);
  }
  return { appId, fix: writes === 'with-fix' ? argv.includes('--fix') : !argv.includes('--check') };
}

/** Runs `work` against a service's database, found as the service finds it (MONGODB_URL, MONGODB_DB), then closes it. */
export async function withServiceDatabase<T>(command: string, defaultDb: string, work: (db: Connection, logger: Logger) => Promise<T>): Promise<T> {
  const logger = createLogger(command, process.env.LOG_LEVEL ?? 'error');
  const db = await connectMongo(process.env.MONGODB_URL ?? 'mongodb://127.0.0.1:27017', process.env.MONGODB_DB ?? defaultDb, logger);
  try {
    return await work(db, logger);
  } finally {
    await db.close();
  }
}
