import { Schema, type Connection, type Model } from 'mongoose';
import { carriesEvents, type OutboxFields } from '@ris/events';
import { declareIndexes, type QueryNames } from '@ris/mongo';
import type { PayoutRepository } from './payout.repository';

/**
 * CREATING while its rewards and clawbacks are being claimed, then
 * PENDING; PENDING → PAID or FAILED. A payout that cannot be opened (too
 * little won, or its process died) becomes ABANDONED, gives back what it
 * claimed, and is deleted. CREATING and ABANDONED are never listed.
 */
export type PayoutStatusName = 'CREATING' | 'ABANDONED' | 'PENDING' | 'PAID' | 'FAILED';

/** The statuses the API shows (a CREATING payout does not exist yet for anyone). */
export const LISTED_STATUSES: readonly PayoutStatusName[] = ['PENDING', 'PAID', 'FAILED'];

/**
 * One referrer's payout in one currency: the CASH rewards it pays less the
 * clawbacks it nets. Which rewards and clawbacks are in it is decided on
 * them (their payoutId, a conditional write each); the ids here are what
 * it claimed (while CREATING: what it means to claim), so a failure or the
 * recovery pass can give exactly those back.
 */
export interface PayoutDoc extends OutboxFields {
  _id: string;
  appId: string;
  userId: string;
  currency: string;
  amount: number;
  rewardsAmount: number;
  clawbacksAmount: number;
  rewardIds: string[];
  clawbackIds: string[];
  status: PayoutStatusName;
  externalReference: string | null;
  failureReason: string | null;
  /** The Idempotency-Key's operation of the POST /payouts that made it: a retry answers its payouts. */
  operationKey: string | null;
  /**
   * PAID or FAILED, and what that owes its rewards and clawbacks (paid and
   * settled, or given back) is written: false in between, which the
   * recovery pass finishes after a crash.
   */
  settled: boolean;
  createdAt: Date;
  updatedAt: Date;
  paidAt: Date | null;
  failedAt: Date | null;
}

const payoutSchema = new Schema<PayoutDoc>(
  {
    _id: { type: String, required: true },
    appId: { type: String, required: true },
    userId: { type: String, required: true },
    currency: { type: String, required: true },
    amount: { type: Number, required: true },
    rewardsAmount: { type: Number, required: true },
    clawbacksAmount: { type: Number, required: true },
    rewardIds: { type: [String], default: [] },
    clawbackIds: { type: [String], default: [] },
    status: { type: String, required: true },
    externalReference: { type: String, default: null },
    failureReason: { type: String, default: null },
    operationKey: { type: String, default: null },
    settled: { type: Boolean, required: true },
    createdAt: { type: Date, required: true },
    updatedAt: { type: Date, required: true },
    paidAt: { type: Date, default: null },
    failedAt: { type: Date, default: null },
  },
  { collection: 'payouts', versionKey: false },
);
declareIndexes<QueryNames<PayoutRepository>>(payoutSchema, [
  // The sort is the index order, so a page (or the export's cursor) reads only its own entries.
  { keys: { appId: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /payouts and its export, newest first (ties by id)' },
  { keys: { appId: 1, status: 1, createdAt: -1, _id: -1 }, serves: ['list', 'all'], why: 'GET /payouts?status= and its export' },
  { keys: { appId: 1, userId: 1, createdAt: -1, _id: -1 }, serves: ['list'], why: "GET /payouts?userId=: a referrer's payouts" },
  { keys: { appId: 1, operationKey: 1 }, serves: ['madeBy'], why: 'a retried POST /payouts answers the payouts its operation made' },
  { keys: { settled: 1, updatedAt: 1 }, serves: ['unfinished'], why: 'the recovery pass (every app): payouts a dead process left CREATING, or PAID/FAILED unsettled, oldest first' },
]);

// A payout's events are stored with the write that makes it PENDING, PAID or FAILED, until published.
carriesEvents(payoutSchema);

export const payoutModel = (db: Connection): Model<PayoutDoc> =>
  (db.models.Payout as Model<PayoutDoc> | undefined) ?? db.model<PayoutDoc>('Payout', payoutSchema);
