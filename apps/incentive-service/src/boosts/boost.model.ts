import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { BoostRepository } from './boost.repository';

/**
 * A time-boxed boost: events inside [startsAt, endsAt) of its actions and
 * users earn coins and XP times `multiplier` (boost-choice.ts). Never
 * changed once created; deleted only before it starts.
 */
export interface BoostDoc {
  /** bst_<operation key> (a retried create finds the first) or random. */
  _id: string;
  appId: string;
  name: string;
  /** 1 < multiplier ≤ 10, at most 2 decimal places. */
  multiplier: number;
  /** Only events of these actions; empty = every action. */
  actionKeys: string[];
  /** Only these users; empty = every user. */
  userIds: string[];
  startsAt: Date;
  endsAt: Date;
  createdAt: Date;
  /** The operation key of the request that created it; null without one. */
  createdByOperation: string | null;
}

const boostSchema = new Schema<BoostDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    name: { type: String, required: true },
    multiplier: { type: Number, required: true },
    actionKeys: { type: [String], default: [] },
    userIds: { type: [String], default: [] },
    startsAt: { type: Date, required: true },
    endsAt: { type: Date, required: true },
    createdAt: { type: Date, required: true },
    createdByOperation: { type: String, default: null },
  },
  { collection: 'boosts', versionKey: false },
);
declareIndexes<QueryNames<BoostRepository>>(boostSchema, [
  {
    keys: { appId: 1, endsAt: 1 },
    serves: ['notEnded', 'openCount'],
    why: "the app's boosts not yet ended: read by the event path (cached per app briefly), and counted against the cap at create",
  },
  {
    keys: { appId: 1, startsAt: -1, _id: -1 },
    serves: ['page'],
    // By start rather than creation: the list reads as the boosts' calendar (scheduled, then active, then ended), and
    // SCHEDULED and ACTIVE bound startsAt, so one index serves the order and those filters.
    why: 'GET /incentives/boosts (of one state, or all), latest start first',
  },
]);

export const boostModel = (db: Connection): Model<BoostDoc> =>
  (db.models.Boost as Model<BoostDoc> | undefined) ?? db.model<BoostDoc>('Boost', boostSchema);
