import { alreadyExists } from '@ris/domain-errors';

type Definition = { _id: string; appId: string; createdByOperation?: string | null };

/** A definition repository's create: the document under its derived id, or the one there already. */
type CreateOrGet<T extends Definition> = (appId: string, doc: Omit<T, 'appId'>) => Promise<{ doc: T; created: boolean }>;

/**
 * Creates an action, badge or milestone under the id its key derives: a
 * second create of the key is 409 ALREADY_EXISTS, except a retry of the
 * request that made it (the same operation key, from its Idempotency-Key),
 * which is answered with what it made. `what` names it in the error
 * ("An action", "A badge"…).
 */
export async function createDefinition<T extends Definition>(
  create: CreateOrGet<T>,
  appId: string,
  doc: Omit<T, 'appId'> & { _id: string },
  what: string,
  key: string,
  operationKey: string,
): Promise<{ doc: T; created: boolean }> {
  const stored = await create(appId, { ...doc, createdByOperation: operationKey || null });
  if (stored.created || (operationKey && stored.doc.createdByOperation === operationKey)) return stored;
  throw alreadyExists(`${what} with key ${key} already exists.`, { key });
}
