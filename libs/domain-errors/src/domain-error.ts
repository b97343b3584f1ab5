/**
 * What a domain module throws when the caller should hear why: a kind
 * (which decides the transport's code, and so the HTTP status), the
 * public error code of docs/api.md#errors (reason), a message for people
 * and optional details. Nothing here knows of Connect or HTTP: each
 * service turns these into Connect codes in one place (libs/rpc,
 * `rpcService`), so domain modules stay free of the transport.
 */

/** A JSON value, as error details carry them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type ErrorDetails = { [key: string]: JsonValue };

/**
 * - `not-found`: no such resource for this app (404)
 * - `invalid`: the request breaks a rule of the contract (400)
 * - `already-exists`: what it would create exists (409 ALREADY_EXISTS)
 * - `conflict`: the state changed or is changing under it; read again or retry (409)
 * - `refused`: a well-formed request the stored state or the clock refuses, with its own reason (422)
 * - `forbidden`: not the caller's to do (403)
 * - `unavailable`: a dependency or a concurrent holder is in the way; retry (503)
 */
export type DomainErrorKind = 'not-found' | 'invalid' | 'already-exists' | 'conflict' | 'refused' | 'forbidden' | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** The public error code (docs/api.md#errors), e.g. NOT_FOUND, CAMPAIGN_INACTIVE. */
    readonly reason: string,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** `<what> not found`, NOT_FOUND. */
export const notFound = (what: string, details?: ErrorDetails) => new DomainError('not-found', 'NOT_FOUND', `${what} not found`, details);

/** A request that breaks a rule of the contract: VALIDATION_ERROR. */
export const invalid = (message: string, details?: ErrorDetails) => new DomainError('invalid', 'VALIDATION_ERROR', message, details);

export const alreadyExists = (message: string, details?: ErrorDetails) => new DomainError('already-exists', 'ALREADY_EXISTS', message, details);

/** The state changed or is changing under the request (CONFLICT, INVALID_TRANSITION, ALREADY_CONVERTED…). */
export const conflict = (reason: string, message: string, details?: ErrorDetails) => new DomainError('conflict', reason, message, details);

/** A business rule refused a well-formed request, with the reason the caller acts on (BADGE_NOT_FOUND, CAMPAIGN_INACTIVE…). */
export const refused = (reason: string, message: string, details?: ErrorDetails) => new DomainError('refused', reason, message, details);

export const forbidden = (reason: string, message: string, details?: ErrorDetails) => new DomainError('forbidden', reason, message, details);

/** Something in the way that passes (a dependency, another holder): retry. UNAVAILABLE. */
export const unavailable = (message: string, details?: ErrorDetails) => new DomainError('unavailable', 'UNAVAILABLE', message, details);

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;
