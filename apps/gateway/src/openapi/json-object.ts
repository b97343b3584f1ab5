import { z } from './zod';

/** Deepest nesting of a metadata object (itself level 1): well below protobuf's Struct limit of 100 (47 in practice). */
export const MAX_METADATA_DEPTH = 32;
/** Largest metadata object, as compact JSON in UTF-8. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** How deep a parsed JSON value nests (a scalar is 0, {} and [] are 1), without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(item)) stack.push({ value: child, depth: depth + 1 });
  }
  return deepest;
}

/**
 * Arbitrary caller data kept with a record: any JSON object of at most 32
 * levels and 16 KiB. The depth is checked first, so the size check (and the
 * protobuf Struct the gateway sends it as) never recurse into a deep one.
 */
export const jsonObject = (description: string) =>
  z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      if (jsonDepth(value) > MAX_METADATA_DEPTH) {
        ctx.addIssue({ code: 'custom', message: `must nest at most ${MAX_METADATA_DEPTH} levels deep` });
      } else if (Buffer.byteLength(JSON.stringify(value)) > MAX_METADATA_BYTES) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_METADATA_BYTES / 1024} KiB of JSON` });
      }
    })
    .openapi({ description: `${description}. Any JSON object of at most ${MAX_METADATA_DEPTH} levels and ${MAX_METADATA_BYTES / 1024} KiB as JSON.` });
