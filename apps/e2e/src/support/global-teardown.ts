import { join } from 'node:path';

// eslint-disable-next-line @typescript-eslint/consistent-type-imports -- a type-only view of the bundle global set-up loaded
type StackModule = typeof import('../../../../libs/stack/src/index');
type Stack = InstanceType<StackModule['ProcessStack']>;

const root = join(__dirname, '..', '..', '..', '..');

export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as { __STACK__?: Stack }).__STACK__;
  if (!stack) return;
  await stack.stop();
  // The run's databases, stream and Redis keys: left behind, every run added
  // seven databases to the development infrastructure for good.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { removeRunData } = require(join(root, 'dist', 'tools', 'stack.js')) as StackModule;
  await removeRunData(stack.options);
}
