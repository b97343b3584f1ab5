import { alreadyExists } from '@ris/domain-errors';
import type { DefinitionDoc, DefinitionRepository } from './definition.repository';

/**
 * Creates an action, badge or milestone under the id its key derives: a
 * second create of the key is 409 ALREADY_EXISTS, except a retry of the
 * request that made it (the same operation key, from its Idempotency-Key),
 * which is answered with what it made. `what` names it in the error
 * ("An action", "A badge"…).
 */
export async function createDefinition<T extends DefinitionDoc>(
  definitions: DefinitionRepository<T>,
  appId: string,
  doc: Omit<T, 'appId'> & { _id: string },
  what: string,
  key: string,
  operationKey: string,
): Promise<{ doc: T; created: boolean }> {
  const stored = await definitions.create(appId, { ...doc, createdByOperation: operationKey || null });
  if (stored.created || (operationKey && stored.doc.createdByOperation === operationKey)) return stored;
  throw alreadyExists(`${what} with key ${key} already exists.`, { key });
}
