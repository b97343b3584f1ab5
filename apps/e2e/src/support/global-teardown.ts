export default async function globalTeardown(): Promise<void> {
  const stack = (globalThis as { __STACK__?: { stop(): Promise<void> } }).__STACK__;
  await stack?.stop();
}
