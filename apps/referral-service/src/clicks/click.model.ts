import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { ClickRepository } from './click.repository';

export interface ClickDoc extends OutboxFields {
  _id: string;
  appId: string;
  referralId: string;
  campaignId: string;
  /** The referral's owner: GET /users/{userId}/stats counts their clicks. */
  referrerId: string;
  code: string;
  refereeId: string | null;
  ip: string | null;
  userAgent: string | null;
  deviceId: string | null;
  clickedAt: Date;
}

const clickSchema = new Schema<ClickDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    referralId: { type: String, required: true },
    campaignId: { type: String, required: true },
    referrerId: { type: String, required: true },
    code: { type: String, required: true },
    refereeId: { type: String, default: null },
    ip: { type: String, default: null },
    userAgent: { type: String, default: null },
    deviceId: { type: String, default: null },
    clickedAt: { type: Date, required: true },
  },
  { collection: 'clicks', versionKey: false },
);
declareIndexes<QueryNames<ClickRepository>>(clickSchema, [
  { keys: { appId: 1, referrerId: 1, campaignId: 1 }, serves: ['countOfReferrer'], why: "GET /users/{userId}/stats: a referrer's clicks, counted (in one campaign or all)" },
]);

// referral.clicked: a batch's events wait on its last click until published.
carriesEvents(clickSchema);

export const clickModel = (db: Connection): Model<ClickDoc> =>
  (db.models.Click as Model<ClickDoc> | undefined) ?? db.model<ClickDoc>('Click', clickSchema);
