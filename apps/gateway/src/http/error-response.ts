import type { ErrorRequestHandler, RequestHandler } from 'express';
import { Code, ConnectError } from '@connectrpc/connect';
import { errorReason } from '@ris/rpc';
import type { Logger } from '@ris/logging';
import { ApiError } from './api-error';
import { recordedPath } from '@ris/telemetry';

interface ErrorBody {
  error: { code: string; message: string; details?: Record<string, unknown>; requestId: string };
}

/** Connect code → HTTP status and default public code (docs/api.md#errors). */
const byConnectCode: Partial<Record<Code, { status: number; code: string }>> = {
  [Code.InvalidArgument]: { status: 400, code: 'VALIDATION_ERROR' },
  [Code.OutOfRange]: { status: 400, code: 'VALIDATION_ERROR' },
  [Code.Unauthenticated]: { status: 401, code: 'UNAUTHENTICATED' },
  [Code.PermissionDenied]: { status: 403, code: 'FORBIDDEN' },
  [Code.NotFound]: { status: 404, code: 'NOT_FOUND' },
  [Code.AlreadyExists]: { status: 409, code: 'ALREADY_EXISTS' },
  [Code.Aborted]: { status: 409, code: 'CONFLICT' },
  [Code.FailedPrecondition]: { status: 422, code: 'UNPROCESSABLE' },
  [Code.ResourceExhausted]: { status: 429, code: 'RATE_LIMITED' },
  [Code.Unavailable]: { status: 503, code: 'UNAVAILABLE' },
  [Code.DeadlineExceeded]: { status: 503, code: 'UNAVAILABLE' },
};

/**
 * The one place where any failure becomes an HTTP status and the error
 * envelope: gateway errors, body-parser errors and Connect errors from the
 * services (code + the reason the service attached).
 */
export function toErrorResponse(err: unknown): { status: number; code: string; message: string; details?: Record<string, unknown>; headers?: Record<string, string> } {
  if (err instanceof ApiError) {
    return { status: err.status, code: err.code, message: err.message, details: err.details, headers: err.headers };
  }
  if (err instanceof ConnectError) {
    const { reason, details } = errorReason(err);
    // A service that died mid-call surfaces as Canceled, or as Aborted with no
    // reason of ours (a reset stream): the outcome is unknown, so retryable.
    if (err.code === Code.Canceled || (err.code === Code.Aborted && !reason)) {
      return { status: 503, code: 'UNAVAILABLE', message: 'A dependency is unavailable; retry later.' };
    }
    const mapped = byConnectCode[err.code];
    if (mapped) {
      const message = mapped.status === 503 ? 'A dependency is unavailable; retry later.' : err.rawMessage;
      return { status: mapped.status, code: reason ?? mapped.code, message, details };
    }
    return { status: 500, code: 'INTERNAL', message: 'Internal error' };
  }
  const bodyParser = err as { type?: string; status?: number; expose?: boolean };
  switch (bodyParser?.type) {
    case 'entity.too.large':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1 MiB.' };
    case 'entity.parse.failed':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'Request body is not valid JSON.' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Unsupported body encoding or charset.' };
    default:
      if (bodyParser?.expose && bodyParser.status && bodyParser.status < 500) {
        return { status: bodyParser.status, code: 'VALIDATION_ERROR', message: 'Malformed request.' };
      }
      return { status: 500, code: 'INTERNAL', message: 'Internal error' };
  }
}

export function errorBody(requestId: string, code: string, message: string, details?: Record<string, unknown>): ErrorBody {
  return { error: { code, message, ...(details ? { details } : {}), requestId } };
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const mapped = toErrorResponse(err);
    if (mapped.status >= 500) logger.error({ err, path: recordedPath(req.originalUrl), method: req.method }, 'request failed');
    if (res.headersSent) return;
    for (const [name, value] of Object.entries(mapped.headers ?? {})) res.setHeader(name, value);
    res.status(mapped.status).json(errorBody(res.locals.requestId as string, mapped.code, mapped.message, mapped.details));
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, 'NOT_FOUND', `No route for ${req.method} ${req.path}`));
};
