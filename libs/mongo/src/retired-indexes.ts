import type { IndexDefinition, Schema } from 'mongoose';

/** An index an earlier release built that this one must not keep (it would refuse what is now allowed, or cost writes for nothing). */
export interface RetiredIndex {
  keys: IndexDefinition;
  why: string;
}

const retired = new WeakMap<Schema, RetiredIndex[]>();

/** Declares indexes of the schema's collection to drop at start (dropRetiredIndexes), beside declareIndexes. */
export function retireIndexes(schema: Schema, indexes: readonly RetiredIndex[]): void {
  retired.set(schema, [...(retired.get(schema) ?? []), ...indexes]);
}

/** The name MongoDB (and mongoose) give an index without a name of its own: field_direction pairs. */
const defaultName = (keys: IndexDefinition) => Object.entries(keys).map(([field, direction]) => `${field}_${String(direction)}`).join('_');

// IndexNotFound, NamespaceNotFound: already dropped (another replica, an earlier start), or never built.
const ABSENT = new Set([26, 27]);

/**
 * Drops the model's retired indexes that exist; run after its declared
 * indexes are built (model.init()), so a replacement is in place first.
 * Safe to repeat and to run from replicas at once. Returns the names dropped.
 */
export async function dropRetiredIndexes(model: { schema: Schema; collection: { dropIndex(name: string): Promise<unknown> } }): Promise<string[]> {
  const dropped: string[] = [];
  for (const index of retired.get(model.schema) ?? []) {
    const name = defaultName(index.keys);
    try {
      await model.collection.dropIndex(name);
      dropped.push(name);
    } catch (err) {
      if (!ABSENT.has((err as { code?: number }).code ?? -1)) throw err;
    }
  }
  return dropped;
}
