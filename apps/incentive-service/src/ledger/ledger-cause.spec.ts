import { causeOf, derivedCause } from './ledger-cause';

describe('ledger causes', () => {
  it('derives the cause of an entry written before causes were recorded from its reason and source', () => {
    expect(derivedCause('ACTION_REWARD', 'evt_1')).toBe('EVENT');
    expect(derivedCause('LEVEL_REWARD', '3')).toBe('LEVEL');
    expect(derivedCause('MILESTONE_REWARD', 'ten-events')).toBe('MILESTONE');
    expect(derivedCause('SCORE_SET', 'leaderboard')).toBe('SCORE_SET');
    expect(derivedCause('ADJUSTMENT', 'adj_1')).toBe('ADJUSTMENT');
    // The catalog-marketplace service's operation ids: <redemption id>:<step>.
    expect(derivedCause('DEBIT', 'rdm_abc:debit')).toBe('CATALOG_REDEMPTION');
    expect(derivedCause('DEBIT', 'mkr_abc:debit')).toBe('MARKETPLACE_REDEMPTION');
    expect(derivedCause('CREDIT', 'rdm_abc:refund')).toBe('REFUND');
    expect(derivedCause('CREDIT', 'mkr_abc:compensate')).toBe('REFUND');
  });

  it('prefers the cause recorded with the entry', () => {
    expect(causeOf({ reason: 'DEBIT', sourceId: 'rdm_abc:debit', cause: 'MARKETPLACE_REDEMPTION' })).toBe('MARKETPLACE_REDEMPTION');
    expect(causeOf({ reason: 'DEBIT', sourceId: 'mkr_abc:debit', cause: null })).toBe('MARKETPLACE_REDEMPTION');
    expect(causeOf({ reason: 'ACTION_REWARD', sourceId: 'evt_1' })).toBe('EVENT');
  });
});
