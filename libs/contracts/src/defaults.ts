/**
 * Defaults the public contract states, shared by the gateway (its OpenAPI
 * document and answers) and the services that apply them.
 */

/** Days a claimed reward or marketplace code stays valid when the campaign or listing does not say. */
export const DEFAULT_CODE_VALIDITY_DAYS = 90;
