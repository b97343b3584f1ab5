import { canTransition, statesBefore } from './reward-transitions';

describe('reward transitions', () => {
  it('allow PENDING → APPROVED → PAID and cancelling before payment', () => {
    expect(canTransition('PENDING', 'APPROVED')).toBe(true);
    expect(canTransition('APPROVED', 'PAID')).toBe(true);
    expect(canTransition('PENDING', 'CANCELLED')).toBe(true);
    expect(canTransition('APPROVED', 'CANCELLED')).toBe(true);
  });

  it('refuse skipping approval, going back, and leaving PAID or CANCELLED', () => {
    expect(canTransition('PENDING', 'PAID')).toBe(false);
    expect(canTransition('APPROVED', 'PENDING')).toBe(false);
    for (const to of ['PENDING', 'APPROVED', 'PAID', 'CANCELLED'] as const) {
      expect(canTransition('PAID', to)).toBe(false);
      expect(canTransition('CANCELLED', to)).toBe(false);
    }
  });

  it('name the starting states of each move', () => {
    expect(statesBefore('PAID')).toEqual(['APPROVED']);
    expect(statesBefore('CANCELLED')).toEqual(['PENDING', 'APPROVED']);
    expect(statesBefore('APPROVED')).toEqual(['PENDING']);
  });
});
