/** What fires an action: the API (STANDARD), or a referral event (docs/product-decisions.md §7.10). */
export const ACTION_TYPES = ['STANDARD', 'REFERRAL_CODE_GENERATE', 'REFERRAL_CLICK', 'REFERRAL_REFEREE_ACTION'] as const;
export type ActionTypeName = (typeof ACTION_TYPES)[number];
