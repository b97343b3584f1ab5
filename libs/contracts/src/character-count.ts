/**
 * Characters (Unicode code points) in a string: how the public API counts
 * lengths (JSON Schema's maxLength), so a limit checked by a service's
 * domain agrees with the gateway's for text outside the Basic Multilingual
 * Plane too. Here, beside the contract, so domain modules need no transport
 * to count (libs/rpc re-exports it for the edges).
 */
export function characterCount(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}
