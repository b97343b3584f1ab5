import mongoose, { type Connection } from 'mongoose';
import type { Logger } from '@ris/logging';

/**
 * Opens this service's own database. Works against MongoDB and FerretDB
 * alike: no transactions, change streams, TTL or partial indexes are used
 * anywhere in the project.
 */
export async function connectMongo(url: string, dbName: string, logger: Logger): Promise<Connection> {
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    maxPoolSize: 20,
    // Indexes are declared on the schemas (each says which query it serves)
    // and created at start-up.
    autoIndex: true,
    autoCreate: true,
  });
  connection.on('disconnected', () => logger.warn({ dbName }, 'mongodb disconnected'));
  connection.on('reconnected', () => logger.info({ dbName }, 'mongodb reconnected'));
  await connection.asPromise();
  logger.info({ dbName }, 'mongodb connected');
  return connection;
}

export function isMongoConnected(connection: Connection): boolean {
  return connection.readyState === mongoose.ConnectionStates.connected;
}

/** E11000: a unique index refused the write. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}
