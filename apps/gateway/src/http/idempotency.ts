import { createHash } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { isDuplicateKeyError } from '@ris/mongo';
import { ApiError } from './api-error';
import { idempotencyRecordModel, type IdempotencyRecord } from './idempotency-record.model';

const WINDOW_MS = 24 * 3600 * 1000;

/** 1 to 255 printable ASCII characters, no spaces: what the document states for the header. */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7e]{1,255}$';
const IDEMPOTENCY_KEY = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export type IdempotencyStart =
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'proceed'; complete: (status: number, body: unknown) => Promise<void>; abandon: () => Promise<void> };

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
 * Idempotency-Key for POSTs (DECISIONS.md §1): the first request with a key
 * runs and its response is kept for 24 h; the same key and request again
 * gets that response back; the same key with another request is a 409.
 * A concurrent duplicate while the first still runs is a 409 CONFLICT, so
 * it can never run twice.
 */
export class IdempotencyStore {
  private readonly records: Model<IdempotencyRecord>;
  private lastCleanup = 0;

  constructor(db: Connection) {
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
    try {
      await this.records.create({ _id: id, appId, key, requestHash, state: 'in_progress', createdAt: now });
      return this.proceed(id);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
    const existing = await this.records.findById(id).lean<IdempotencyRecord>().exec();
    if (!existing) return this.begin(appId, key, requestHash);
    if (existing.createdAt.getTime() < now.getTime() - WINDOW_MS) {
      // Expired: take the key over, unless another request just did.
      const taken = await this.records
        .findOneAndUpdate(
          { _id: id, createdAt: existing.createdAt },
          { $set: { requestHash, state: 'in_progress', createdAt: now }, $unset: { status: 1, body: 1 } },
          { new: true },
        )
        .lean()
        .exec();
      if (taken) return this.proceed(id);
      return this.begin(appId, key, requestHash);
    }
    if (existing.requestHash !== requestHash) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    if (existing.state !== 'completed' || existing.status === undefined) {
      throw new ApiError(409, 'CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly.');
    }
    return { kind: 'replay', status: existing.status, body: existing.body ? JSON.parse(existing.body) : undefined };
  }

  private proceed(id: string): IdempotencyStart {
    return {
      kind: 'proceed',
      complete: async (status, body) => {
        await this.records
          .updateOne({ _id: id }, { $set: { state: 'completed', status, body: JSON.stringify(body ?? null) } })
          .exec();
      },
      // A failure worth retrying (5xx, 429) is not remembered.
      abandon: async () => {
        await this.records.deleteOne({ _id: id, state: 'in_progress' }).exec();
      },
    };
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < 10 * 60 * 1000) return;
    this.lastCleanup = Date.now();
    await this.records.deleteMany({ createdAt: { $lt: new Date(Date.now() - WINDOW_MS) } }).exec().catch(() => undefined);
  }
}
