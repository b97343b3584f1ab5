import type { OutboxFields } from '@ris/events';
import type { IndexDeclaration, QueryNames } from '@ris/mongo';
import type { DebitKnowledge, SagaState } from './redemption-saga-machine';
import type { SagaRecordRepository } from './saga-record.repository';

/**
 * What every redemption record (catalog or marketplace) carries for its
 * saga: where it stands, what is known about the debit, whether work is
 * still owed (open) and until when the current worker owns it (lease).
 */
export interface SagaRecord extends OutboxFields {
  _id: string;
  /** The app whose user redeemed, and whose coins and tokens paid. */
  appId: string;
  userId: string;
  coinCost: number;
  tokenCost: number;
  state: SagaState;
  debit: DebitKnowledge;
  /** Why a FAILED redemption failed (INSUFFICIENT_BALANCE, OUT_OF_STOCK, …). */
  failureReason: string | null;
  /** A unit of stock was taken (false for unlimited goods); cancelling gives it back. */
  stockTaken: boolean;
  /** Work is still owed: an intermediate state, or events and stock markers of the last step. */
  open: boolean;
  /** Whoever moved the record last owns it until then; the recovery pass takes over after. */
  leaseUntil: Date;
  /**
   * The process (ProcessLiveness instance) that holds the lease: when it
   * dies, the record is taken over at once rather than when the lease runs
   * out. Null on records made before holders were kept.
   */
  holder: string | null;
  /** Derived from the request's Idempotency-Key (see Redeemer.redeemOnce); null without one. */
  operationKey: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export const sagaFields = {
  _id: { type: String, required: true },
  appId: { type: String, required: true },
  userId: { type: String, required: true },
  coinCost: { type: Number, required: true },
  tokenCost: { type: Number, required: true },
  state: { type: String, required: true },
  debit: { type: String, required: true },
  failureReason: { type: String, default: null },
  stockTaken: { type: Boolean, default: false },
  open: { type: Boolean, required: true },
  leaseUntil: { type: Date, required: true },
  holder: { type: String, default: null },
  operationKey: { type: String, default: null },
  createdAt: { type: Date, required: true },
  updatedAt: { type: Date, required: true },
} as const;

/** The indexes every saga collection needs besides its own. */
export const sagaIndexes: ReadonlyArray<IndexDeclaration<QueryNames<SagaRecordRepository<SagaRecord>>>> = [
  {
    keys: { open: 1, leaseUntil: 1 },
    serves: ['openAcrossApps'],
    why: "the recovery pass: records with work owed, oldest lease first (it takes those whose lease ran out or whose holder died)",
  },
];
