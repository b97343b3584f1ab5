/** Error codes the API documents (docs/api.md#errors); others may be added, so `code` is any string. */
export type KnownErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'INTERNAL'
  | 'CAMPAIGN_INACTIVE'
  | 'REFERRAL_NOT_FOUND';

/** Any failure of the SDK: an answer of the API, a timeout, or a request that never got an answer. */
export class RisError extends Error {
  override name = 'RisError';
}

/** The API answered with an error (its envelope `{"error": {code, message, details?, requestId}}`). */
export class ApiError extends RisError {
  override name = 'ApiError';

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The error's code, e.g. VALIDATION_ERROR or CAMPAIGN_INACTIVE. */
    readonly code: KnownErrorCode | (string & {}),
    message: string,
    /** The request's id (`X-Request-Id`): quote it when asking about this request. */
    readonly requestId: string | undefined,
    /** More about the failure (e.g. `issues` of a VALIDATION_ERROR). */
    readonly details: Record<string, unknown> | undefined,
    /** `Retry-After` of a 429 or 503, in milliseconds. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** No answer within the timeout (each try has its own). Whether the request took effect is unknown. */
export class RequestTimeoutError extends RisError {
  override name = 'RequestTimeoutError';

  constructor(readonly timeoutMs: number) {
    super(`No answer within ${timeoutMs} ms`);
  }
}

/** The request got no answer: connection refused or reset, DNS, TLS. Whether it took effect is unknown. */
export class NetworkError extends RisError {
  override name = 'NetworkError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
