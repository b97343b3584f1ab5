import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardCodeRepository } from './reward-code.repository';

/**
 * The code issued for a reward. Inserting it is the claim: _id is the
 * reward id, so of concurrent claims exactly one insert succeeds (an insert
 * under a unique key is atomic on MongoDB and FerretDB alike) and the
 * others read the winner's code.
 */
export interface RewardCodeDoc extends OutboxFields {
  /** The reward id: one code per reward. */
  _id: string;
  appId: string;
  code: string;
  claimedAt: Date;
  expiresAt: Date;
}

const rewardCodeSchema = new Schema<RewardCodeDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    code: { type: String, required: true },
    claimedAt: { type: Date, required: true },
    expiresAt: { type: Date, required: true },
  },
  { collection: 'reward_codes', versionKey: false },
);
declareIndexes<QueryNames<RewardCodeRepository>>(rewardCodeSchema, [
  {
    keys: { code: 1 },
    options: { unique: true },
    serves: ['byCode', 'issue'],
    // Unique across every app: a code is a bearer token and must mean one reward.
    why: 'GET /rewards/validate finds the reward by its code; a (vanishingly rare) collision makes the claim draw another code',
  },
]);

// reward.claimed is stored with the code it announces, until published.
carriesEvents(rewardCodeSchema);

export const rewardCodeModel = (db: Connection): Model<RewardCodeDoc> =>
  (db.models.RewardCode as Model<RewardCodeDoc> | undefined) ?? db.model<RewardCodeDoc>('RewardCode', rewardCodeSchema);
