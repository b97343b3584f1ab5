import mongoose, { type Connection } from 'mongoose';
import type { Logger } from '@ris/logging';
import { metricsEnabled } from '@ris/telemetry';
import { observeCommands } from './command-metrics';

/**
 * Opens this service's own database. Works against MongoDB and FerretDB
 * alike: no transactions, change streams, TTL or partial indexes are used
 * anywhere in the project.
 */
export async function connectMongo(url: string, dbName: string, logger: Logger): Promise<Connection> {
  // Mongoose otherwise formats a stack trace for every query it runs (kept
  // only to explain "Query was already executed"); with the bundles' source
  // maps that was about 5% of the webhook service's busy CPU in a profile.
  mongoose.set('skipOriginalStackTraces', true);
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 20,
    // Indexes are declared on the schemas (each says which query it serves)
    // and created at start-up.
    autoIndex: true,
    autoCreate: true,
    // Command latency for /metrics; the driver emits these events only when asked.
    monitorCommands: metricsEnabled(),
  });
  if (metricsEnabled()) observeCommands(connection);
  connection.on('disconnected', () => logger.warn({ dbName }, 'mongodb disconnected'));
  connection.on('reconnected', () => logger.info({ dbName }, 'mongodb reconnected'));
  await connection.asPromise();
  logger.info({ dbName }, 'mongodb connected');
  return connection;
}

export function isMongoConnected(connection: Connection): boolean {
  return connection.readyState === mongoose.ConnectionStates.connected;
}

/**
 * A unique index refused the write: E11000 on MongoDB (and on FerretDB for
 * inserts and upserts). FerretDB v1 reports an update ($set of a value
 * another document holds) as code 1 carrying its backend's error instead:
 * SQLite's "UNIQUE constraint failed" or PostgreSQL's SQLSTATE 23505.
 */
/**
 * The indexes of an unordered bulk insert's documents that hit a unique
 * index: null when the error is a duplicate key but does not say which;
 * a set holding -1 when some document failed for another reason.
 */
export function duplicateKeyIndexes(err: unknown): Set<number> | null {
  const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  if (list.length === 0) return isDuplicateKeyError(err) ? null : new Set([-1]);
  const indexes = new Set<number>();
  for (const e of list as Array<{ index?: number; code?: number; err?: { index?: number; code?: number } }>) {
    const code = e.code ?? e.err?.code;
    const index = e.index ?? e.err?.index;
    if (code !== 11000 || index === undefined) return new Set([-1]);
    indexes.add(index);
  }
  return indexes;
}

export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (
    code === 11000 ||
    (code === 1 && typeof message === 'string' && (message.includes('UNIQUE constraint failed') || message.includes('SQLSTATE 23505')))
  );
}
