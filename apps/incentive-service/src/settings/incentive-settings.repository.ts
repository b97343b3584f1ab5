import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { incentiveSettingsModel, type IncentiveSettingsDoc } from './incentive-settings.model';

/** Each app's engine settings, under the app's id. */
export class IncentiveSettingsRepository extends Repository<IncentiveSettingsDoc> {
  constructor(db: Connection) {
    super(incentiveSettingsModel(db));
  }

  ofApp(appId: string): Promise<IncentiveSettingsDoc | null> {
    return this.collection.findById(appId, appId);
  }

  /** Replaces them (one document, written whole: the last write wins). */
  async put(appId: string, settings: Pick<IncentiveSettingsDoc, 'coinExpiryDays' | 'tokenExpiryDays'>): Promise<IncentiveSettingsDoc> {
    const doc = { ...settings, updatedAt: new Date() };
    await this.collection.upsertOne(appId, { _id: appId }, { $set: doc });
    return { _id: appId, appId, ...doc };
  }
}
