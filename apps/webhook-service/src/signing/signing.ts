import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): receivers
 * verify with any of the public `standardwebhooks` libraries.
 *
 *   webhook-id:        the message id (the same on every attempt)
 *   webhook-timestamp: unix seconds of this attempt
 *   webhook-signature: "v1,<base64 HMAC-SHA256(key, `${id}.${timestamp}.${body}`)>",
 *                      one per active secret, space-separated
 *
 * The key is the base64-decoded part of the secret after "whsec_".
 */

export const SECRET_PREFIX = 'whsec_';
/** 256 bits, as long as the HMAC-SHA256 output; Standard Webhooks asks for at least 24 bytes. */
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('a webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

export function sign(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', secretKey(secret)).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** The three headers for one attempt, signed with every secret given (newest first). */
export function signedHeaders(secrets: string[], messageId: string, body: string, now: Date = new Date()): SignedHeaders {
  if (secrets.length === 0) throw new Error('at least one secret is needed to sign');
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => sign(secret, messageId, timestamp, body)).join(' '),
  };
}
