import { join } from 'node:path';
import mongoose from 'mongoose';
import { connect } from 'nats';
import { ProcessStack, type StackOptions } from '@ris/stack';
import { e2eStack, ownStackOptions, runName } from '@ris/testing';

const root = join(__dirname, '..', '..', '..', '..');

/**
 * A stack of a test file's own on the shared infrastructure (own databases,
 * stream and Redis keys, free ports), for tests that stop or kill services
 * without disturbing the other test files. Not started yet, so that a failed
 * start still leaves it to removeOwnStack.
 */
export function ownStack(prefix: string, options: Pick<StackOptions, 'apps' | 'env' | 'appEnv' | 'supervise'>): ProcessStack {
  const shared = e2eStack();
  return new ProcessStack(
    ownStackOptions(runName(prefix), 'e2e-logs', {
      root,
      infra: { MONGODB_URL: shared.mongodbUrl, NATS_URL: shared.natsUrl, REDIS_URL: shared.redisUrl },
      ...options,
    }),
  );
}

/** Stops the stack and deletes its stream and its databases. */
export async function removeOwnStack(stack: ProcessStack | undefined): Promise<void> {
  if (!stack) return;
  await stack.stop();
  await removeRunData(stack.options);
}

/** Deletes what a stack of its own left on the shared infrastructure: its stream and its databases. */
export async function removeRunData({ eventsStream, dbPrefix }: Pick<StackOptions, 'eventsStream' | 'dbPrefix'>): Promise<void> {
  const nc = await connect({ servers: e2eStack().natsUrl });
  await (await nc.jetstreamManager()).streams.delete(eventsStream).catch(() => undefined);
  await nc.close();
  const conn = await mongoose.createConnection(e2eStack().mongodbUrl).asPromise();
  const { databases } = await conn.db!.admin().listDatabases();
  for (const { name } of databases.filter((d) => d.name.startsWith(dbPrefix))) await conn.useDb(name).dropDatabase();
  await conn.close();
}
