/** Whose money a payout question is about: one currency and one referrer, each optional (POST /payouts, GET /payouts/due). */
export interface PayoutScope {
  currency?: string;
  userId?: string;
}

/** The scope's fields that are set, as query fields (the rewards' and clawbacks' payout indexes hold both). */
export const payoutScopeQuery = (scope: PayoutScope): PayoutScope => ({
  ...(scope.userId ? { userId: scope.userId } : {}),
  ...(scope.currency ? { currency: scope.currency } : {}),
});
