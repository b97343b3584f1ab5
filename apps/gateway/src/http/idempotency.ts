import { createHash } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { insertOnce } from '@ris/mongo';
import type { EnvelopeCipher } from '@ris/secrets';
import { ApiError } from './api-error';
import { idempotencyRecordModel, type IdempotencyRecord } from './idempotency-record.model';

const stillRunning = () => new ApiError(409, 'CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly.');

const WINDOW_MS = 24 * 3600 * 1000;

/** A kept body opens only in its own record (`${appId}:${key}`). */
const bodyContext = (recordId: string) => ['gateway-idempotent-response', recordId];
/**
 * How long a run holds its key. A request ends well within it (every RPC
 * has a 10 s deadline); a record still in_progress past it belongs to a
 * gateway that died mid-request, and the next request with the key runs it.
 */
const RUN_LEASE_MS = 30_000;
/** 1 to 255 printable ASCII characters, no spaces: what the document states for the header. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export type IdempotencyStart =
  | { kind: 'replay'; status: number; body: unknown }
  | {
      kind: 'proceed';
      /** Identifies the operation in the services: the same for every run of this key (see operationKeyOf). */
      operationKey: string;
      complete: (status: number, body: unknown) => Promise<void>;
      /** The run failed in a way worth retrying: its outcome is unknown, so nothing is kept but the key. */
      release: () => Promise<void>;
    };

/** JSON with sorted keys, so {a,b} and {b,a} are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The operation key the services derive their ids from (a redemption's,
 * a conversion's, an event's…): one per app, Idempotency-Key and 24 h
 * window, so every retry of a request reaches the same operation, and a
 * key reused after its window starts a new one. 128 bits, hex.
 */
export function operationKeyOf(recordId: string, windowStart: Date): string {
  return createHash('sha256').update(`${recordId}\n${windowStart.getTime()}`).digest('hex').slice(0, 32);
}

/**
 * Idempotency-Key for POSTs (docs/api.md#idempotency): the first request with a key
 * runs and its response is kept for 24 h; the same key and request again
 * gets that response back; the same key with another request is a 409.
 * A concurrent duplicate while the first still runs is a 409 CONFLICT.
 *
 * A run that ends in a failure worth retrying (5xx, 429, a transient
 * conflict) keeps the key as `retryable`: its outcome is unknown (a service
 * may have died after doing the work), so the next request with the key
 * runs it again under the same operation key, and the services resume or
 * return that operation instead of starting a second one.
 *
 * Kept responses are encrypted (libs/secrets, bound to app and key): some
 * carry a secret shown only once.
 */
export class IdempotencyStore {
  private readonly records: Model<IdempotencyRecord>;
  private lastCleanup = 0;

  constructor(
    db: Connection,
    private readonly cipher: EnvelopeCipher,
  ) {
    this.records = idempotencyRecordModel(db);
  }

  static validateKey(key: string): void {
    if (!IDEMPOTENCY_KEY.test(key)) {
      const message = 'must be 1 to 255 printable ASCII characters (no spaces)';
      throw new ApiError(400, 'VALIDATION_ERROR', `Idempotency-Key ${message}.`, { issues: [{ field: 'header.Idempotency-Key', message }] });
    }
  }

  static hashRequest(method: string, path: string, body: unknown): string {
    return createHash('sha256').update(`${method} ${path}\n${canonical(body ?? null)}`).digest('hex');
  }

  async begin(appId: string, key: string, requestHash: string): Promise<IdempotencyStart> {
    const id = `${appId}:${key}`;
    const now = new Date();
    void this.cleanup();
    if (await insertOnce(this.records, { _id: id, appId, key, requestHash, state: 'in_progress', leaseUntil: this.lease(now), runs: 1, createdAt: now })) {
      return this.proceed(id, operationKeyOf(id, now), 1);
    }
    const existing = await this.records.findById(id).lean<IdempotencyRecord>().exec();
    if (!existing) return this.begin(appId, key, requestHash);
    if (existing.createdAt.getTime() < now.getTime() - WINDOW_MS) {
      // Expired: take the key over for a new window, unless another request just did.
      const taken = await this.records
        .findOneAndUpdate(
          { _id: id, createdAt: existing.createdAt },
          { $set: { requestHash, state: 'in_progress', leaseUntil: this.lease(now), runs: 1, createdAt: now }, $unset: { status: 1, sealedBody: 1, body: 1 } },
          { new: true },
        )
        .lean()
        .exec();
      if (taken) return this.proceed(id, operationKeyOf(id, now), 1);
      return this.begin(appId, key, requestHash);
    }
    if (existing.requestHash !== requestHash) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    if (existing.state === 'completed' && existing.status !== undefined) {
      return { kind: 'replay', status: existing.status, body: this.storedBody(existing) };
    }
    // Records written before leases existed: held for a lease from their start.
    const heldUntil = existing.leaseUntil ?? new Date(existing.createdAt.getTime() + RUN_LEASE_MS);
    if (existing.state === 'in_progress' && heldUntil.getTime() > now.getTime()) throw stillRunning();
    // Retryable, or held by a run that is gone: run it again, one request at a time.
    const runs = existing.runs ?? 1;
    const taken = await this.records
      .findOneAndUpdate(
        { _id: id, state: existing.state, runs: existing.runs ?? null },
        { $set: { state: 'in_progress', leaseUntil: this.lease(now), runs: runs + 1 } },
        { new: true },
      )
      .lean()
      .exec();
    if (!taken) throw stillRunning();
    return this.proceed(id, operationKeyOf(id, existing.createdAt), runs + 1);
  }

  /** The kept response body: sealed, or in clear in a record from before encryption at rest. */
  private storedBody(record: IdempotencyRecord): unknown {
    const text = record.sealedBody ? this.cipher.openText(record.sealedBody, bodyContext(record._id)) : record.body;
    return text ? JSON.parse(text) : undefined;
  }

  private lease(now: Date): Date {
    return new Date(now.getTime() + RUN_LEASE_MS);
  }

  private proceed(id: string, operationKey: string, run: number): IdempotencyStart {
    return {
      kind: 'proceed',
      operationKey,
      complete: async (status, body) => {
        await this.records
          .updateOne(
            { _id: id },
            {
              $set: { state: 'completed', status, sealedBody: this.cipher.seal(JSON.stringify(body ?? null), bodyContext(id)) },
              $unset: { leaseUntil: 1 },
            },
          )
          .exec();
      },
      release: async () => {
        // Only this run's hold: a later run that took the key over keeps it.
        await this.records.updateOne({ _id: id, state: 'in_progress', runs: run }, { $set: { state: 'retryable' }, $unset: { leaseUntil: 1 } }).exec();
      },
    };
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 10 * 60 * 1000) return;
    this.lastCleanup = Date.now();
    await this.records.deleteMany({ createdAt: { $lt: new Date(Date.now() - WINDOW_MS) } }).exec().catch(() => undefined);
  }
}
