/** A failure the gateway itself decides (validation, auth, limits). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const validationError = (message: string, details?: Record<string, unknown>) =>
  new ApiError(400, 'VALIDATION_ERROR', message, details);
