import { Schema, type Connection, type Model } from 'mongoose';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { BalanceState } from './balance-fold';
import type { BalanceRepository } from './balance.repository';

/**
 * A user's balance: the fold of their ledger entries 1..seq (balance-fold.ts).
 * Only ever changed by a compare-and-set on seq (ledger.ts).
 */
export interface BalanceDoc extends BalanceState {
  /** balanceId(app, user). */
  _id: string;
  appId: string;
  userId: string;
  /** When the dues pass must look at it (a lot expires, a pending credit releases); absent: nothing due. */
  nextDueAt?: Date;
  createdAt: Date;
  updatedAt: Date;
}

const balanceSchema = new Schema<BalanceDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    seq: { type: Number, required: true },
    coins: { type: Number, default: 0 },
    xp: { type: Number, default: 0 },
    tokens: { type: Number, default: 0 },
    coinsEarned: { type: Number, default: 0 },
    rewardedEvents: { type: Number, default: 0 },
    referrals: { type: Number, default: 0 },
    // Maps keyed by action key / period field: written with dotted paths.
    actions: { type: Schema.Types.Mixed, default: {} },
    periods: { type: Schema.Types.Mixed, default: {} },
    xpChangedAt: { type: Date, default: null },
    levelsGranted: { type: [Number], default: [] },
    milestones: { type: [String], default: [] },
    perks: { type: [String], default: [] },
    coinLots: { type: [new Schema({ expiresAt: Date, amount: Number }, { _id: false })], default: undefined },
    tokenLots: { type: [new Schema({ expiresAt: Date, amount: Number }, { _id: false })], default: undefined },
    pendingCoins: { type: Number, default: 0 },
    pendingTokens: { type: Number, default: 0 },
    pending: { type: [new Schema({ key: String, coins: Number, tokens: Number, releaseAt: Date }, { _id: false })], default: undefined },
    debtCoins: { type: Number, default: 0 },
    debtTokens: { type: Number, default: 0 },
    // The soonest lot to expire or pending credit to release (balance-fold.ts nextDueAt); absent: none.
    nextDueAt: { type: Date, default: undefined },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
  },
  { collection: 'balances', versionKey: false, minimize: false },
);
declareIndexes<QueryNames<BalanceRepository>>(balanceSchema, [
  { keys: { appId: 1, xp: -1, userId: 1 }, serves: ['page', 'allInOrder', 'topOfBoard'], why: 'GET /incentives/balances?sort=xp (default), ?level= (a range of XP); the all-time board' },
  { keys: { appId: 1, coins: -1, userId: 1 }, serves: ['page', 'allInOrder'], why: 'GET /incentives/balances?sort=coins; GET /participants/export?sort=COINS' },
  { keys: { appId: 1, tokens: -1, userId: 1 }, serves: ['page', 'allInOrder'], why: 'GET /incentives/balances?sort=tokens' },
  {
    keys: { nextDueAt: 1 },
    options: { sparse: true },
    serves: ['due'],
    why: 'the dues pass (every app: a system job): balances with a lot to expire or a pending credit to release by now; sparse, as most balances have none',
  },
]);

export const balanceModel = (db: Connection): Model<BalanceDoc> =>
  (db.models.Balance as Model<BalanceDoc> | undefined) ?? db.model<BalanceDoc>('Balance', balanceSchema);
