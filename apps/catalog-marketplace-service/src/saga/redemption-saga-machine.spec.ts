import {
  compensationSteps,
  effectsOf,
  publicStatus,
  recoveryAction,
  retryAction,
  requestStatus,
  statesShowing,
  transition,
  type SagaInput,
  type SagaSnapshot,
  type SagaState,
} from './redemption-saga-machine';

const snapshot = (state: SagaState, extra: Partial<SagaSnapshot> = {}): SagaSnapshot => ({
  state,
  debit: 'NOT_TRIED',
  open: true,
  failureReason: null,
  stockTaken: false,
  ...extra,
});

const ALL: SagaState[] = ['RESERVING', 'COMPENSATING', 'FAILED', 'CONFIRMED', 'FULFILLED', 'CANCELLING', 'CANCELLED'];
const INPUTS: SagaInput[] = [
  { type: 'STOCK_REFUSED', reason: 'OUT_OF_STOCK' },
  { type: 'DEBITED', stockTaken: true },
  { type: 'DEBIT_REFUSED', insufficient: true },
  { type: 'DEBIT_UNKNOWN' },
  { type: 'ABANDONED' },
  { type: 'COMPENSATED' },
  { type: 'FULFIL' },
  { type: 'CANCEL' },
  { type: 'REFUNDED' },
  { type: 'EFFECTS_DONE' },
];

describe('redemption saga machine', () => {
  describe('transition', () => {
    it('confirms a reservation whose debit went through, closed, its event stored with the move, keeping whether a unit was taken', () => {
      expect(transition(snapshot('RESERVING'), { type: 'DEBITED', stockTaken: true })).toEqual({
        from: 'RESERVING',
        set: { state: 'CONFIRMED', open: false, debit: 'DONE', stockTaken: true },
        publish: ['PUBLISH_CONFIRMED'],
      });
    });

    it('fails a reservation refused for stock at once: nothing to undo', () => {
      expect(transition(snapshot('RESERVING'), { type: 'STOCK_REFUSED', reason: 'ITEM_UNAVAILABLE' })).toEqual({
        from: 'RESERVING',
        set: { state: 'FAILED', open: false, failureReason: 'ITEM_UNAVAILABLE' },
      });
    });

    it('compensates after a refused debit, knowing nothing was debited', () => {
      expect(transition(snapshot('RESERVING'), { type: 'DEBIT_REFUSED', insufficient: true })?.set).toEqual({
        state: 'COMPENSATING',
        open: true,
        debit: 'REFUSED',
        failureReason: 'INSUFFICIENT_BALANCE',
      });
      // Refused for another reason (contention): not the balance's final word.
      expect(transition(snapshot('RESERVING'), { type: 'DEBIT_REFUSED', insufficient: false })?.set.failureReason).toBe('DEBIT_REFUSED');
    });

    it('compensates after an unanswered debit, or an abandoned reservation, as if it may have happened', () => {
      expect(transition(snapshot('RESERVING'), { type: 'DEBIT_UNKNOWN' })?.set).toMatchObject({ state: 'COMPENSATING', debit: 'UNKNOWN' });
      expect(transition(snapshot('RESERVING'), { type: 'ABANDONED' })?.set).toMatchObject({
        state: 'COMPENSATING',
        debit: 'UNKNOWN',
        failureReason: 'ABANDONED',
      });
    });

    it('closes a compensation as FAILED', () => {
      expect(transition(snapshot('COMPENSATING', { debit: 'UNKNOWN' }), { type: 'COMPENSATED' })).toEqual({
        from: 'COMPENSATING',
        set: { state: 'FAILED', open: false },
      });
    });

    it('fulfils or cancels a confirmed redemption, and finishes a cancellation once refunded', () => {
      expect(transition(snapshot('CONFIRMED', { open: false }), { type: 'FULFIL' })?.set).toEqual({ state: 'FULFILLED', open: true });
      expect(transition(snapshot('CONFIRMED', { open: false }), { type: 'CANCEL' })?.set).toEqual({ state: 'CANCELLING', open: true });
      expect(transition(snapshot('CANCELLING'), { type: 'REFUNDED' })?.set).toEqual({ state: 'CANCELLED', open: true });
    });

    it('closes a state whose follow-up is done, only while it is open', () => {
      for (const state of ['CONFIRMED', 'FULFILLED', 'CANCELLED'] as const) {
        expect(transition(snapshot(state), { type: 'EFFECTS_DONE' })).toEqual({ from: state, set: { state, open: false } });
        expect(transition(snapshot(state, { open: false }), { type: 'EFFECTS_DONE' })).toBeNull();
      }
    });

    it('allows nothing else', () => {
      const allowed = new Set([
        'RESERVING:STOCK_REFUSED',
        'RESERVING:DEBITED',
        'RESERVING:DEBIT_REFUSED',
        'RESERVING:DEBIT_UNKNOWN',
        'RESERVING:ABANDONED',
        'COMPENSATING:COMPENSATED',
        'CONFIRMED:FULFIL',
        'CONFIRMED:CANCEL',
        'CONFIRMED:EFFECTS_DONE',
        'CANCELLING:REFUNDED',
        'FULFILLED:EFFECTS_DONE',
        'CANCELLED:EFFECTS_DONE',
      ]);
      for (const state of ALL) {
        for (const input of INPUTS) {
          const move = transition(snapshot(state), input);
          expect([`${state}:${input.type}`, move !== null]).toEqual([`${state}:${input.type}`, allowed.has(`${state}:${input.type}`)]);
          if (move) expect(move.from).toBe(state);
        }
      }
    });

    it('never leaves FAILED, FULFILLED or CANCELLED for another state', () => {
      for (const state of ['FAILED', 'FULFILLED', 'CANCELLED'] as const) {
        for (const input of INPUTS) {
          const move = transition(snapshot(state), input);
          if (move) expect(move.set.state).toBe(state);
        }
      }
    });
  });

  describe('compensationSteps', () => {
    it('always releases the stock, and credits back exactly when the debit did or may have happened', () => {
      expect(compensationSteps('DONE')).toEqual(['RELEASE_STOCK', 'CREDIT_BACK']);
      expect(compensationSteps('UNKNOWN')).toEqual(['RELEASE_STOCK', 'RESOLVE_DEBIT_THEN_CREDIT_BACK']);
      expect(compensationSteps('REFUSED')).toEqual(['RELEASE_STOCK']);
      expect(compensationSteps('NOT_TRIED')).toEqual(['RELEASE_STOCK']);
    });
  });

  describe('effectsOf', () => {
    it('announces each step and settles the stock markers, cumulatively', () => {
      expect(effectsOf('CONFIRMED')).toEqual(['PUBLISH_CONFIRMED', 'COMMIT_STOCK']);
      expect(effectsOf('FULFILLED')).toEqual(['PUBLISH_CONFIRMED', 'COMMIT_STOCK', 'PUBLISH_FULFILLED']);
      expect(effectsOf('CANCELLED')).toEqual(['PUBLISH_CONFIRMED', 'COMMIT_STOCK', 'PUBLISH_CANCELLED', 'CLEAR_RETURN_MARKER']);
      for (const state of ['RESERVING', 'COMPENSATING', 'FAILED', 'CANCELLING'] as const) expect(effectsOf(state)).toEqual([]);
    });
  });

  describe('recoveryAction', () => {
    const now = new Date('2026-11-21T08:00:00.000Z');
    const expired = new Date(now.getTime() - 1);
    const held = new Date(now.getTime() + 1000);

    it('leaves records alone while their lease runs, and closed records always', () => {
      expect(recoveryAction({ state: 'RESERVING', open: true, leaseUntil: held }, now)).toBe('WAIT');
      expect(recoveryAction({ state: 'CONFIRMED', open: false, leaseUntil: expired }, now)).toBe('NONE');
      expect(recoveryAction({ state: 'FAILED', open: false, leaseUntil: expired }, now)).toBe('NONE');
    });

    it('undoes abandoned reservations, finishes compensations and cancellations, and runs owed follow-up', () => {
      expect(recoveryAction({ state: 'RESERVING', open: true, leaseUntil: expired }, now)).toBe('ABANDON');
      expect(recoveryAction({ state: 'COMPENSATING', open: true, leaseUntil: expired }, now)).toBe('COMPENSATE');
      expect(recoveryAction({ state: 'CANCELLING', open: true, leaseUntil: expired }, now)).toBe('FINISH_CANCEL');
      for (const state of ['CONFIRMED', 'FULFILLED', 'CANCELLED'] as const) {
        expect(recoveryAction({ state, open: true, leaseUntil: expired }, now)).toBe('RUN_EFFECTS');
      }
    });

    it('treats a lease ending exactly now as run out', () => {
      expect(recoveryAction({ state: 'RESERVING', open: true, leaseUntil: now }, now)).toBe('ABANDON');
    });

    it('takes over at once a record whose holding process is dead, lease or not', () => {
      expect(recoveryAction({ state: 'RESERVING', open: true, leaseUntil: held }, now, false)).toBe('ABANDON');
      expect(recoveryAction({ state: 'CANCELLING', open: true, leaseUntil: held }, now, false)).toBe('FINISH_CANCEL');
    });
  });

  describe('retryAction (a request again with the Idempotency-Key that started the record)', () => {
    const now = new Date('2026-11-21T08:00:00.000Z');
    const held = new Date(now.getTime() + 1000);
    const expired = new Date(now.getTime() - 1);
    const at = (state: SagaState, failureReason: string | null = null, leaseUntil = expired) => ({ state, failureReason, leaseUntil });

    it('answers a made redemption again, whatever happened to it since', () => {
      for (const state of ['CONFIRMED', 'FULFILLED', 'CANCELLING', 'CANCELLED'] as const) expect(retryAction(at(state), now, true)).toBe('RETURN');
    });

    it('repeats final refusals and makes a new attempt after passing failures', () => {
      for (const reason of ['INSUFFICIENT_BALANCE', 'OUT_OF_STOCK', 'ITEM_UNAVAILABLE']) expect(retryAction(at('FAILED', reason), now, true)).toBe('REFUSE_AGAIN');
      for (const reason of ['UNAVAILABLE', 'ABANDONED', 'STOCK_HELD', 'DEBIT_REFUSED']) expect(retryAction(at('FAILED', reason), now, true)).toBe('NEW_ATTEMPT');
    });

    it('waits for a live holder, and takes over from a dead one or a run-out lease', () => {
      expect(retryAction(at('RESERVING', null, held), now, true)).toBe('BUSY');
      expect(retryAction(at('COMPENSATING', null, held), now, true)).toBe('BUSY');
      expect(retryAction(at('RESERVING', null, held), now, false)).toBe('RESUME');
      expect(retryAction(at('RESERVING', null, expired), now, true)).toBe('RESUME');
      expect(retryAction(at('COMPENSATING', null, held), now, false)).toBe('COMPENSATE_THEN_RETRY');
    });
  });

  describe('public status', () => {
    it('shows confirmed redemptions as PENDING, a decided cancellation as CANCELLED, and hides the rest', () => {
      expect(publicStatus('CONFIRMED')).toBe('PENDING');
      expect(publicStatus('FULFILLED')).toBe('FULFILLED');
      expect(publicStatus('CANCELLING')).toBe('CANCELLED');
      expect(publicStatus('CANCELLED')).toBe('CANCELLED');
      for (const state of ['RESERVING', 'COMPENSATING', 'FAILED'] as const) expect(publicStatus(state)).toBeNull();
    });

    it('filters lists by the states behind a status', () => {
      expect(statesShowing()).toEqual(['CONFIRMED', 'FULFILLED', 'CANCELLING', 'CANCELLED']);
      expect(statesShowing('PENDING')).toEqual(['CONFIRMED']);
      expect(statesShowing('CANCELLED')).toEqual(['CANCELLING', 'CANCELLED']);
      expect(statesShowing('FULFILLED')).toEqual(['FULFILLED']);
    });
  });

  describe('requestStatus (PATCH)', () => {
    it('moves a PENDING redemption either way', () => {
      expect(requestStatus('CONFIRMED', 'FULFILLED', false)).toEqual({ action: 'FULFIL' });
      expect(requestStatus('CONFIRMED', 'CANCELLED', false)).toEqual({ action: 'CANCEL' });
    });

    it('refuses every other transition with INVALID_TRANSITION', () => {
      expect(requestStatus('FULFILLED', 'CANCELLED', true)).toEqual({ refuse: 'INVALID_TRANSITION' });
      expect(requestStatus('FULFILLED', 'FULFILLED', true)).toEqual({ refuse: 'INVALID_TRANSITION' });
      expect(requestStatus('CANCELLED', 'FULFILLED', true)).toEqual({ refuse: 'INVALID_TRANSITION' });
      expect(requestStatus('CANCELLED', 'CANCELLED', true)).toEqual({ refuse: 'INVALID_TRANSITION' });
      expect(requestStatus('CANCELLING', 'FULFILLED', true)).toEqual({ refuse: 'INVALID_TRANSITION' });
    });

    it('resumes an interrupted cancellation only once its lease ran out', () => {
      expect(requestStatus('CANCELLING', 'CANCELLED', true)).toEqual({ action: 'RESUME_CANCEL' });
      expect(requestStatus('CANCELLING', 'CANCELLED', false)).toEqual({ refuse: 'INVALID_TRANSITION' });
    });

    it('does not know redemptions that were never made', () => {
      for (const state of ['RESERVING', 'COMPENSATING', 'FAILED'] as const) {
        expect(requestStatus(state, 'FULFILLED', true)).toEqual({ refuse: 'NOT_FOUND' });
      }
    });
  });
});
