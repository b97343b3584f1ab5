import { createHash } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import { newId, randomBase62 } from '@ris/mongo';
import type { Logger } from '@ris/logging';
import type { Principal } from '../console/access/principal';
import { KeyUsage } from '../console/keys/key-usage';
import { apiKeyModel, type ApiKeyRecord } from './api-key.model';
import { appModel, type AppRecord } from './app.model';

const KEY_PATTERN = /^rk_live_[A-Za-z0-9]{32,128}$/;
// Keys are looked up on every request; a short cache spares the database
// while a revoked key stops working within this long on other replicas
// (at once on the replica that revoked it).
const CACHE_MS = 5_000;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export interface IssuedKey {
  id: string;
  apiKey: string;
  prefix: string;
  name: string | null;
  createdAt: Date;
}

interface CachedKey {
  /** The key's caller, made once per cache entry (the hot path allocates nothing). */
  principal: Principal | null;
  keyId: string | null;
  until: number;
}

/** Apps and their API keys: the gateway's own data. */
export class AppDirectory {
  private readonly apps: Model<AppRecord>;
  private readonly keys: Model<ApiKeyRecord>;
  private readonly cache = new Map<string, CachedKey>();
  private readonly usage: KeyUsage;

  constructor(db: Connection, logger: Logger) {
    this.apps = appModel(db);
    this.keys = apiKeyModel(db);
    this.usage = new KeyUsage(this.keys, logger);
  }

  async createApp(name: string): Promise<{ app: AppRecord; key: IssuedKey }> {
    const app = (await this.apps.create({ _id: newId('app'), name, createdAt: new Date(), members: [], operatorIds: [], membersVersion: 0 })).toObject();
    const key = await this.issueKey(app._id);
    return { app, key };
  }

  getApp(appId: string): Promise<AppRecord | null> {
    return this.apps.findById(appId).lean<AppRecord>().exec();
  }

  /** A new key of the app; `name` says what it is for (shown in listings, never needed to use it). */
  async issueKey(appId: string, name: string | null = null): Promise<IssuedKey> {
    const apiKey = `rk_live_${randomBase62(40)}`;
    const record = await this.keys.create({
      _id: newId('key'),
      appId,
      hash: hashApiKey(apiKey),
      prefix: apiKey.slice(0, 12),
      name,
      createdAt: new Date(),
      revokedAt: null,
      lastUsedAt: null,
    });
    return { id: record._id, apiKey, prefix: record.prefix, name, createdAt: record.createdAt };
  }

  listKeys(appId: string): Promise<ApiKeyRecord[]> {
    return this.keys.find({ appId }).sort({ createdAt: -1 }).lean<ApiKeyRecord[]>().exec();
  }

  /** Returns false when the app has no such key. */
  async revokeKey(appId: string, keyId: string): Promise<boolean> {
    const key = await this.keys
      .findOneAndUpdate({ _id: keyId, appId }, { $set: { revokedAt: new Date() } }, { new: true })
      .lean<ApiKeyRecord>()
      .exec();
    if (key) this.cache.delete(key.hash);
    return key !== null;
  }

  /** The caller a presented key stands for (its app), or null (unknown, malformed or revoked). */
  async authenticate(apiKey: string): Promise<Principal | null> {
    if (!KEY_PATTERN.test(apiKey)) return null;
    const hash = hashApiKey(apiKey);
    let entry = this.cache.get(hash);
    if (!entry || entry.until <= Date.now()) {
      const key = await this.keys.findOne({ hash }).lean<ApiKeyRecord>().exec();
      const live = key && !key.revokedAt ? key : null;
      entry = { principal: live ? { kind: 'apiKey', appId: live.appId } : null, keyId: live?._id ?? null, until: Date.now() + CACHE_MS };
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(hash, entry);
    }
    if (entry.keyId) this.usage.used(entry.keyId);
    return entry.principal;
  }
}
