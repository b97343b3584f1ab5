import { describe, expect, it } from 'vitest';
import { heldUntil, reversalOf, rewardNotes, type RewardView } from './reward-terms';

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const reward = (overrides: Partial<RewardView> = {}): RewardView => ({ status: 'APPROVED', amount: 10, currency: 'USD', ...overrides });

describe("a reward's state beyond its status", () => {
  it('reads a reward without the fields of holding periods and reversals as neither held nor reversed', () => {
    expect(rewardNotes(reward(), NOW)).toEqual([]);
    expect(rewardNotes(reward({ status: 'PENDING' }), NOW)).toEqual([]);
    expect(rewardNotes(reward({ availableAt: null, reversedAmount: 0, earnedAmount: 10, reversalReason: null, purchaseId: null }), NOW)).toEqual([]);
  });

  it('says until when a PENDING reward is held, while that lies ahead', () => {
    const held = reward({ status: 'PENDING', availableAt: '2026-12-15T12:00:00.000Z' });
    expect(heldUntil(held, NOW)).toBe('2026-12-15T12:00:00.000Z');
    expect(rewardNotes(held, NOW)).toEqual([expect.stringMatching(/^held until 2026-12-1[45]$/)]);
    // Its holding period over (a review still holds it), or approved since: not held until anything.
    expect(heldUntil({ ...held, availableAt: '2026-11-30T12:00:00.000Z' }, NOW)).toBeNull();
    expect(heldUntil({ ...held, status: 'APPROVED' }, NOW)).toBeNull();
  });

  it('says a reward a reversal cancelled is reversed, with the reason', () => {
    const cancelled = reward({ status: 'CANCELLED', amount: 10, earnedAmount: 10, reversedAmount: 10, reversalReason: 'REFUND' });
    expect(reversalOf(cancelled)).toEqual({ full: true, taken: 10, reason: 'REFUND' });
    expect(rewardNotes(cancelled, NOW)).toEqual(['reversed (refund)']);
    // A reason alone says so too; an unknown reason is not written.
    expect(rewardNotes(reward({ status: 'CANCELLED', reversalReason: 'OTHER' }), NOW)).toEqual(['reversed']);
  });

  it('says by how much a partial reversal reduced a reward, in its currency', () => {
    const reduced = reward({ amount: 7.5, earnedAmount: 10, reversedAmount: 2.5, reversalReason: 'CHARGEBACK', currency: 'EUR' });
    expect(reversalOf(reduced)).toEqual({ full: false, taken: 2.5, reason: 'CHARGEBACK' });
    expect(rewardNotes(reduced, NOW)).toEqual(['reduced by €2.50 (chargeback)']);
    // Without earnedAmount (an older gateway), what it earned is what it kept plus what was taken.
    expect(reversalOf(reward({ amount: 7.5, reversedAmount: 2.5 }))?.full).toBe(false);
  });

  it('says what a paid reward owes back', () => {
    expect(rewardNotes(reward({ status: 'PAID', amount: 10, earnedAmount: 10, reversedAmount: 10, reversalReason: 'REFUND' }), NOW)).toEqual([
      'reversed (refund), $10.00 owed back',
    ]);
    expect(rewardNotes(reward({ status: 'PAID', amount: 10, earnedAmount: 10, reversedAmount: 4, reversalReason: 'REFUND' }), NOW)).toEqual([
      'reduced by $4.00 (refund), owed back',
    ]);
  });

  it('says an approved reward is in a payout while one holds it', () => {
    expect(rewardNotes(reward({ status: 'APPROVED', payoutId: 'po_1' }), NOW)).toEqual(['in a payout']);
    expect(rewardNotes(reward({ status: 'PAID', payoutId: 'po_1' }), NOW)).toEqual([]);
    expect(rewardNotes(reward({ status: 'APPROVED', payoutId: null }), NOW)).toEqual([]);
  });

  it('says both of a held reward a reversal reduced', () => {
    const both = reward({ status: 'PENDING', amount: 5, earnedAmount: 10, reversedAmount: 5, reversalReason: 'REFUND', availableAt: '2026-12-20T00:00:00.000Z' });
    expect(rewardNotes(both, NOW)).toEqual([expect.stringMatching(/^held until 2026-12-(19|20)$/), 'reduced by $5.00 (refund)']);
  });
});
