import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './connect-mongo';
import { insertAsCreated } from './schema-insert';

/**
 * Inserts a document kept outside an app-scoped repository (housekeeping
 * across apps: "this pass ran for this period"; a consumer's processed
 * marker; the gateway's own idempotency records and operators) unless a
 * unique index already holds one: true for the caller that inserted it,
 * false when it was there already (an earlier pass, another replica's, a
 * racing request's). Any other failure is raised.
 */
export async function insertOnce<T extends { _id: string }>(model: Model<T>, doc: T): Promise<boolean> {
  try {
    await insertAsCreated(model, doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}
