/**
 * Defaults the public contract states, shared by the gateway (its OpenAPI
 * document and answers) and the services that apply them.
 */

/** Days a claimed reward or marketplace code stays valid when the campaign or listing does not say. */
export const DEFAULT_CODE_VALIDITY_DAYS = 90;

/** Longest holding period of a campaign's rewards: a year. */
export const MAX_HOLD_DAYS = 365;

/** Longest a referee's later purchases earn recurring rewards: ten years. */
export const MAX_RECURRING_MONTHS = 120;
