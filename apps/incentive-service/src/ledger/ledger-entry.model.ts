import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { Movement } from './balance-fold';
import type { LedgerEntryRepository } from './ledger-entry.repository';
import type { Amounts } from './reward-amounts';

/**
 * One immutable movement of a user's balance, in slot `seq` of the user's
 * ledger. Never updated or deleted (the events a grant's entry carries
 * until they are published are not part of the movement).
 */
export interface LedgerEntryDoc extends Omit<Movement, 'cause'>, OutboxFields {
  /** Absent on entries written before causes were recorded: read with causeOf (ledger-cause.ts). */
  cause?: Movement['cause'] | null;
  /** ledgerEntryId(app, user, seq): the _id index gives each slot to exactly one entry. */
  _id: string;
  appId: string;
  userId: string;
  seq: number;
  /** The user's balance right after this entry (entries are applied in seq order). */
  balanceAfter: Amounts;
}

const ledgerEntrySchema = new Schema<LedgerEntryDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    seq: { type: Number, required: true },
    key: { type: String, required: true },
    reason: { type: String, required: true },
    cause: { type: String },
    coins: { type: Number, required: true },
    xp: { type: Number, required: true },
    tokens: { type: Number, required: true },
    sourceId: { type: String, required: true },
    actionKey: { type: String, default: null },
    actionType: { type: String, default: null },
    level: { type: Number, default: null },
    milestoneKey: { type: String, default: null },
    perks: { type: [String], default: [] },
    description: { type: String, default: null },
    triggeredBy: { type: String, default: null },
    balanceAfter: { type: new Schema({ coins: Number, xp: Number, tokens: Number }, { _id: false }), required: true },
    // REVERSAL entries only (absent on every other entry).
    unrecovered: { type: new Schema({ coins: Number, xp: Number, tokens: Number }, { _id: false }), default: undefined },
    reversal: { type: new Schema({ conversionId: String, id: String, reason: String }, { _id: false }), default: undefined },
    // A boosted ACTION_REWARD, a STREAK_REWARD only.
    boost: { type: new Schema({ id: String, name: String, multiplier: Number }, { _id: false }), default: undefined },
    streakKey: { type: String, default: undefined },
    streakLength: { type: Number, default: undefined },
    // Credits: when their lot expires; pending credits and their release or cancellation; debts (absent elsewhere).
    coinsExpireAt: { type: Date, default: undefined },
    tokensExpireAt: { type: Date, default: undefined },
    pendingCoins: { type: Number, default: undefined },
    pendingTokens: { type: Number, default: undefined },
    pendingUntil: { type: Date, default: undefined },
    debt: { type: new Schema({ coins: Number, tokens: Number }, { _id: false }), default: undefined },
    debtRepaid: { type: new Schema({ coins: Number, tokens: Number }, { _id: false }), default: undefined },
    createdAt: { type: Date, required: true },
  },
  { collection: 'ledger', versionKey: false },
);
declareIndexes<QueryNames<LedgerEntryRepository>>(ledgerEntrySchema, [
  {
    keys: { appId: 1, key: 1 },
    options: { unique: true },
    serves: ['fill', 'withKey'],
    why: 'one entry per key and app (event:<id>, level:<n>:<user>, debit:<operation id>, reversal:<event id>, …): a retried movement can never be recorded twice',
  },
  {
    keys: { appId: 1, userId: 1, seq: -1 },
    options: { unique: true },
    serves: ['ofUser', 'allOfUser'],
    why: "GET /incentives/balances/{userId}/transactions (newest first) and its export; also the rebuild's scan (inUserOrder), which folds each user's entries in seq order",
  },
]);

// incentive.level_up and incentive.milestone_reached wait on the entries of the grants they announce, until published.
carriesEvents(ledgerEntrySchema);

export const ledgerEntryModel = (db: Connection): Model<LedgerEntryDoc> =>
  (db.models.LedgerEntry as Model<LedgerEntryDoc> | undefined) ?? db.model<LedgerEntryDoc>('LedgerEntry', ledgerEntrySchema);
