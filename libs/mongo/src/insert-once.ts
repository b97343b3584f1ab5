import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './connect-mongo';

/**
 * Inserts a document of no app (housekeeping across apps: "this pass ran
 * for this period") under its _id, unless one is there: true for the
 * caller that inserted it, false when it was there already (an earlier
 * pass, another replica's). Any other failure is raised.
 */
export async function insertOnce<T extends { _id: string }>(model: Model<T>, doc: T): Promise<boolean> {
  try {
    await model.create(doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}
