import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { RewardTotalsRepository } from './reward-totals.repository';

/** Amounts of rewards by status, and how many there are. */
export interface AmountsByStatus {
  pending: number;
  approved: number;
  paid: number;
  cancelled: number;
  count: number;
}

/**
 * Pre-aggregated reward amounts, kept on every transition with $inc so the
 * stats endpoints read one document instead of scanning rewards. One
 * document per campaign (userId '') and one per user and campaign.
 */
export interface RewardTotalsDoc {
  /** `${campaignId}:${userId}`: incremented and read by a lone _id (one index read on FerretDB too). */
  _id: string;
  appId: string;
  campaignId: string;
  /** '' for the campaign's own totals. */
  userId: string;
  total?: Partial<AmountsByStatus>;
  /** Referrer-side amounts by level: levels.L1, levels.L2, … (user documents). */
  levels?: Record<string, Partial<AmountsByStatus>>;
  /** Referee-side amounts (user documents). */
  referee?: Partial<AmountsByStatus>;
}

const totalsSchema = new Schema<RewardTotalsDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    campaignId: { type: String, required: true },
    userId: { type: String, default: '' },
    total: { type: Schema.Types.Mixed },
    levels: { type: Schema.Types.Mixed },
    referee: { type: Schema.Types.Mixed },
  },
  { collection: 'reward_totals', versionKey: false, minimize: false },
);
// The $inc upserts (add), GET /stats and GET /users/{userId}/stats?campaignId= (ofCampaign) go by _id.
declareIndexes<QueryNames<RewardTotalsRepository>>(totalsSchema, [
  { keys: { appId: 1, userId: 1 }, serves: ['ofUser'], why: "GET /users/{userId}/stats without campaignId: the user's documents of every campaign" },
]);

export const rewardTotalsModel = (db: Connection): Model<RewardTotalsDoc> =>
  (db.models.RewardTotals as Model<RewardTotalsDoc> | undefined) ?? db.model<RewardTotalsDoc>('RewardTotals', totalsSchema);
