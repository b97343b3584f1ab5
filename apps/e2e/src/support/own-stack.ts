import { join } from 'node:path';
import { ProcessStack, removeRunData, type StackOptions } from '@ris/stack';
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

/** Stops the stack and deletes what it stored: its databases, stream and Redis keys. */
export async function removeOwnStack(stack: ProcessStack | undefined): Promise<void> {
  if (!stack) return;
  await stack.stop();
  await removeRunData(stack.options);
}
