import type { Model } from 'mongoose';
import type { Logger } from '@ris/logging';
import type { ApiKeyRecord } from '../../tenancy/api-key.model';

/** A key's lastUsedAt is written at most this often per replica: the console shows "last used" to the minute, not per request. */
const WRITE_EVERY_MS = 60_000;

/**
 * Keeps each API key's lastUsedAt without costing the request that used
 * it anything: the write is not waited for, and made at most once a minute
 * per key in this replica (a map lookup on every other request).
 */
export class KeyUsage {
  private readonly written = new Map<string, number>();

  constructor(
    private readonly keys: Model<ApiKeyRecord>,
    private readonly logger: Logger,
  ) {}

  used(keyId: string): void {
    const now = Date.now();
    const last = this.written.get(keyId);
    if (last !== undefined && now - last < WRITE_EVERY_MS) return;
    if (this.written.size > 10_000) this.written.clear();
    this.written.set(keyId, now);
    this.keys.updateOne({ _id: keyId }, { $set: { lastUsedAt: new Date(now) } }).exec().catch((err: unknown) => {
      // Only the console's "last used" is late; the next minute's use writes it again.
      this.written.delete(keyId);
      this.logger.warn({ err, keyId }, 'could not record an API key use');
    });
  }
}
