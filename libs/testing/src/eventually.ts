/**
 * Polls `read` until `done` holds and returns that value; past the timeout
 * it fails with the last value read (so a caller may use it as its
 * assertion). For what arrives asynchronously: events through JetStream,
 * deliveries, recovery passes.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
