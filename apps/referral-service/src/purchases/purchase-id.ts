import { createHash } from 'node:crypto';
import { idFromOperation } from '@ris/mongo';

/**
 * The _id of a purchase, derived from what makes it the same payment, so
 * that recording it again finds the first record (a unique _id decides
 * two concurrent tries, on MongoDB and FerretDB alike) and never earns
 * twice:
 *
 * - with the caller's externalId (an invoice id): from the app, the
 *   conversion and that id, whatever the request's Idempotency-Key, for
 *   ever (the payment is the caller's fact, like an event's idempotencyKey);
 * - else from the request's operation key (its Idempotency-Key): a retry of
 *   the request is the same purchase;
 * - else a new id: each request is a new purchase.
 *
 * The externalId is hashed (SHA-256, 192 bits kept) rather than put in the
 * id as it is: it is the caller's text of up to 128 characters of any kind.
 */
export function purchaseId(appId: string, conversionId: string, externalId: string | null, operationKey: string): string {
  if (externalId === null) return idFromOperation('pur', operationKey);
  const digest = createHash('sha256').update(JSON.stringify([appId, conversionId, externalId])).digest('base64url');
  return `pur_${digest.slice(0, 32)}`;
}
