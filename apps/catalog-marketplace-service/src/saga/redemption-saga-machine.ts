/**
 * The redemption saga as a pure state machine: no I/O, so every rule is
 * unit-tested. `redemption-saga.ts` runs it against the stores and the
 * incentive service; each move it writes is a conditional update from the
 * `from` state, so two workers (a request and the recovery pass, or two
 * PATCHes) can never both make the same move.
 *
 *   RESERVING ──stock refused──────────────▶ FAILED
 *       │ ├────debit refused / unknown / lease ran out──▶ COMPENSATING ──▶ FAILED
 *       ▼ debited
 *   CONFIRMED ──fulfil──▶ FULFILLED
 *       └──────cancel──▶ CANCELLING ──refunded and restocked──▶ CANCELLED
 *
 * RESERVING is written before anything else happens, with the operation
 * id the debit will use (derived from the redemption id); the stock
 * reservation leaves a marker (hold) on the good, so whether stock was
 * taken is always knowable. A state whose follow-up work (events, dropping
 * stock markers) is not done yet is `open`; so is every intermediate state.
 *
 * The confirmation is reached closed, in one write: its event is stored
 * with the move (`publish`), and the only other follow-up, making the hold
 * final, needs no record of its own: the request does it right after, and
 * the recovery sweep makes final every hold whose redemption is closed and
 * confirmed (so a crash in between loses nothing). One record write fewer
 * per redemption than an open CONFIRMED closed by a second write.
 */

export type SagaState = 'RESERVING' | 'COMPENSATING' | 'FAILED' | 'CONFIRMED' | 'FULFILLED' | 'CANCELLING' | 'CANCELLED';

/**
 * What is known about the debit: NOT_TRIED (RESERVING records; nothing is
 * written between the stock step and the debit), DONE, REFUSED (the
 * incentive service said INSUFFICIENT_BALANCE: nothing was taken), or
 * UNKNOWN (no answer, or the worker vanished: it may have happened).
 */
export type DebitKnowledge = 'NOT_TRIED' | 'UNKNOWN' | 'REFUSED' | 'DONE';

/**
 * Why the stock step refused. STOCK_HELD: none left, but some units are
 * held by redemptions still in flight (or by a process that died), which
 * may give them back: not a final answer, so it is reported as a conflict
 * to retry, never as OUT_OF_STOCK.
 */
export type StockRefusal = 'OUT_OF_STOCK' | 'ITEM_UNAVAILABLE' | 'STOCK_HELD';
/** DEBIT_REFUSED: the incentive service refused the debit for another reason than the balance (e.g. contention). */
export type FailureReason = StockRefusal | 'INSUFFICIENT_BALANCE' | 'DEBIT_REFUSED' | 'UNAVAILABLE' | 'ABANDONED';

/** Refusals that are the business's final answer: a retry with the same key gets the same one. */
export type FinalRefusal = 'OUT_OF_STOCK' | 'ITEM_UNAVAILABLE' | 'INSUFFICIENT_BALANCE';

export function isFinalRefusal(reason: string | null): reason is FinalRefusal {
  return reason === 'OUT_OF_STOCK' || reason === 'ITEM_UNAVAILABLE' || reason === 'INSUFFICIENT_BALANCE';
}

export type SagaInput =
  | { type: 'STOCK_REFUSED'; reason: StockRefusal }
  | { type: 'DEBITED'; stockTaken: boolean }
  | { type: 'DEBIT_REFUSED'; insufficient: boolean }
  | { type: 'DEBIT_UNKNOWN' }
  /** The lease ran out while RESERVING: the worker crashed or stalled. */
  | { type: 'ABANDONED' }
  | { type: 'COMPENSATED' }
  | { type: 'FULFIL' }
  | { type: 'CANCEL' }
  /** Coins and tokens credited back, and the unit returned to stock. */
  | { type: 'REFUNDED' }
  /** The state's follow-up work is done. */
  | { type: 'EFFECTS_DONE' };

export interface SagaSnapshot {
  state: SagaState;
  debit: DebitKnowledge;
  open: boolean;
  failureReason: string | null;
  stockTaken: boolean;
}

export interface SagaMove {
  /** The state the record must still be in (the filter of the conditional update). */
  from: SagaState;
  /** What the update sets. */
  set: Partial<SagaSnapshot> & Pick<SagaSnapshot, 'state' | 'open'>;
  /** Events stored with the move itself (the same write), for a state reached closed. */
  publish?: Array<Extract<Effect, `PUBLISH_${string}`>>;
}

/** The move `input` causes from `current`, or null when it is not allowed. */
export function transition(current: SagaSnapshot, input: SagaInput): SagaMove | null {
  const from = current.state;
  const to = (set: SagaMove['set']): SagaMove => ({ from, set });
  switch (from) {
    case 'RESERVING':
      switch (input.type) {
        case 'STOCK_REFUSED':
          // Nothing was taken and nothing debited: done at once.
          return to({ state: 'FAILED', open: false, failureReason: input.reason });
        case 'DEBITED':
          // Closed at once, its event in the same write (see the comment at the top).
          return { ...to({ state: 'CONFIRMED', open: false, debit: 'DONE', stockTaken: input.stockTaken }), publish: ['PUBLISH_CONFIRMED'] };
        case 'DEBIT_REFUSED':
          return to({ state: 'COMPENSATING', open: true, debit: 'REFUSED', failureReason: input.insufficient ? 'INSUFFICIENT_BALANCE' : 'DEBIT_REFUSED' });
        case 'DEBIT_UNKNOWN':
          return to({ state: 'COMPENSATING', open: true, debit: 'UNKNOWN', failureReason: 'UNAVAILABLE' });
        case 'ABANDONED':
          // Nobody knows how far the worker got: assume the debit may have happened.
          return to({ state: 'COMPENSATING', open: true, debit: 'UNKNOWN', failureReason: 'ABANDONED' });
        default:
          return null;
      }
    case 'COMPENSATING':
      return input.type === 'COMPENSATED' ? to({ state: 'FAILED', open: false }) : null;
    case 'CONFIRMED':
      if (input.type === 'FULFIL') return to({ state: 'FULFILLED', open: true });
      if (input.type === 'CANCEL') return to({ state: 'CANCELLING', open: true });
      // Open only when an earlier release confirmed it (it closed it with a second write).
      return input.type === 'EFFECTS_DONE' && current.open ? to({ state: 'CONFIRMED', open: false }) : null;
    case 'CANCELLING':
      return input.type === 'REFUNDED' ? to({ state: 'CANCELLED', open: true }) : null;
    case 'FULFILLED':
    case 'CANCELLED':
      return input.type === 'EFFECTS_DONE' && current.open ? to({ state: from, open: false }) : null;
    case 'FAILED':
      return null;
  }
}

export type CompensationStep =
  /** Give back the unit the reservation took, if it took one (the good's marker says). */
  | 'RELEASE_STOCK'
  /** The debit happened: credit it back. */
  | 'CREDIT_BACK'
  /** The debit may have happened: replay it by its operation id to learn (it is applied at most once), then credit back if it went through. */
  | 'RESOLVE_DEBIT_THEN_CREDIT_BACK';

/** What compensation must do, given what is known about the debit. */
export function compensationSteps(debit: DebitKnowledge): CompensationStep[] {
  switch (debit) {
    case 'DONE':
      return ['RELEASE_STOCK', 'CREDIT_BACK'];
    case 'UNKNOWN':
      return ['RELEASE_STOCK', 'RESOLVE_DEBIT_THEN_CREDIT_BACK'];
    case 'REFUSED':
    case 'NOT_TRIED':
      return ['RELEASE_STOCK'];
  }
}

export type Effect =
  /** redemption.created / marketplace.redeemed */
  | 'PUBLISH_CONFIRMED'
  /** The reservation is final: drop the good's hold marker (the unit stays taken; the sweep does it for closed confirmed redemptions too). */
  | 'COMMIT_STOCK'
  | 'PUBLISH_FULFILLED'
  | 'PUBLISH_CANCELLED'
  /** The returned unit is recorded as CANCELLED: drop the good's return marker. */
  | 'CLEAR_RETURN_MARKER';

/**
 * Follow-up work owed once a state is reached. Cumulative (a redemption
 * fulfilled before its confirmation's follow-up ran still gets it) and
 * idempotent (events have ids derived from the redemption and the step;
 * markers are removed by value), so running it twice is harmless.
 */
export function effectsOf(state: SagaState): Effect[] {
  switch (state) {
    case 'CONFIRMED':
      return ['PUBLISH_CONFIRMED', 'COMMIT_STOCK'];
    case 'FULFILLED':
      return ['PUBLISH_CONFIRMED', 'COMMIT_STOCK', 'PUBLISH_FULFILLED'];
    case 'CANCELLED':
      return ['PUBLISH_CONFIRMED', 'COMMIT_STOCK', 'PUBLISH_CANCELLED', 'CLEAR_RETURN_MARKER'];
    default:
      return [];
  }
}

export type RecoveryAction =
  | 'NONE'
  /** Someone holds the lease: leave it to them. */
  | 'WAIT'
  /** RESERVING past its lease: move to COMPENSATING, then compensate. */
  | 'ABANDON'
  | 'COMPENSATE'
  | 'FINISH_CANCEL'
  | 'RUN_EFFECTS';

/** Someone is working on the record: its lease runs and the process holding it is alive. */
export function isHeld(record: { leaseUntil: Date }, now: Date, holderAlive: boolean): boolean {
  return holderAlive && record.leaseUntil.getTime() > now.getTime();
}

/** What the recovery pass does with a record (`holderAlive`: the process holding its lease still beats). */
export function recoveryAction(
  record: Pick<SagaSnapshot, 'state' | 'open'> & { leaseUntil: Date },
  now: Date,
  holderAlive = true,
): RecoveryAction {
  if (!record.open) return 'NONE';
  if (isHeld(record, now, holderAlive)) return 'WAIT';
  switch (record.state) {
    case 'RESERVING':
      // Compensated rather than finished: its request answered an error or
      // never answered, so the caller believes it did not happen.
      return 'ABANDON';
    case 'COMPENSATING':
      return 'COMPENSATE';
    case 'CANCELLING':
      return 'FINISH_CANCEL';
    case 'CONFIRMED':
    case 'FULFILLED':
    case 'CANCELLED':
      return 'RUN_EFFECTS';
    case 'FAILED':
      return 'NONE';
  }
}

export type PublicRedemptionStatus = 'PENDING' | 'FULFILLED' | 'CANCELLED';

/** A catalog redemption's public status; null for redemptions not (or not yet) made, which are not shown. */
export function publicStatus(state: SagaState): PublicRedemptionStatus | null {
  switch (state) {
    case 'CONFIRMED':
      return 'PENDING';
    case 'FULFILLED':
      return 'FULFILLED';
    // The cancellation is decided and durable; the recovery pass finishes its refund.
    case 'CANCELLING':
    case 'CANCELLED':
      return 'CANCELLED';
    default:
      return null;
  }
}

const ALL_STATES: SagaState[] = ['RESERVING', 'COMPENSATING', 'FAILED', 'CONFIRMED', 'FULFILLED', 'CANCELLING', 'CANCELLED'];

/** The states shown under a public status (all shown ones when unset): the filter of GET /redemptions. */
export function statesShowing(status?: PublicRedemptionStatus): SagaState[] {
  return ALL_STATES.filter((state) => {
    const shown = publicStatus(state);
    return shown !== null && (status === undefined || shown === status);
  });
}

export type StatusRequest = { action: 'FULFIL' | 'CANCEL' | 'RESUME_CANCEL' } | { refuse: 'NOT_FOUND' | 'INVALID_TRANSITION' };

/**
 * PATCH /redemptions/{id}: FULFILLED or CANCELLED from PENDING only.
 * A cancellation whose refund was interrupted (its lease ran out) can be
 * asked for again, and then finishes; while its worker still holds the
 * lease a second request is refused like any other.
 */
export function requestStatus(state: SagaState, target: 'FULFILLED' | 'CANCELLED', leaseExpired: boolean): StatusRequest {
  if (publicStatus(state) === null) return { refuse: 'NOT_FOUND' };
  if (state === 'CONFIRMED') return { action: target === 'FULFILLED' ? 'FULFIL' : 'CANCEL' };
  if (state === 'CANCELLING' && target === 'CANCELLED' && leaseExpired) return { action: 'RESUME_CANCEL' };
  return { refuse: 'INVALID_TRANSITION' };
}

export type RetryAction =
  /** The redemption was made: answer it again. */
  | 'RETURN'
  /** Still being worked on: the retry is told to come back. */
  | 'BUSY'
  /** RESERVING with nobody on it (its process died): take it over and finish it, as the retry asks. */
  | 'RESUME'
  /** COMPENSATING with nobody on it: finish undoing it, then the retry makes a new attempt. */
  | 'COMPENSATE_THEN_RETRY'
  /** Refused for good (INSUFFICIENT_BALANCE, OUT_OF_STOCK, ITEM_UNAVAILABLE): the same refusal again. */
  | 'REFUSE_AGAIN'
  /** Failed for a passing reason (the balance service was down, the process died, stock was held): nothing was taken, a new attempt. */
  | 'NEW_ATTEMPT';

/**
 * A request arrives again with the Idempotency-Key of an earlier one and
 * finds the redemption that key started: what to do so that one key makes
 * at most one purchase, and a retry after an unknown outcome completes it.
 */
export function retryAction(record: Pick<SagaSnapshot, 'state' | 'failureReason'> & { leaseUntil: Date }, now: Date, holderAlive: boolean): RetryAction {
  if (publicStatus(record.state) !== null) return 'RETURN';
  switch (record.state) {
    case 'FAILED':
      return isFinalRefusal(record.failureReason) ? 'REFUSE_AGAIN' : 'NEW_ATTEMPT';
    case 'RESERVING':
      return isHeld(record, now, holderAlive) ? 'BUSY' : 'RESUME';
    default:
      return isHeld(record, now, holderAlive) ? 'BUSY' : 'COMPENSATE_THEN_RETRY';
  }
}
