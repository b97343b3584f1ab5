import { create, type JsonObject } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorDetailSchema, ItemErrorSchema, type ItemError } from '@ris/contracts';
import { isDomainError, type DomainErrorKind } from '@ris/domain-errors';

export { Code, ConnectError };

/**
 * The error a service raises for anything the caller should see: a Connect
 * code (which decides the HTTP status in the gateway) plus the public error
 * code of docs/api.md#errors (reason) and optional details.
 */
export function rpcError(code: Code, reason: string, message: string, details?: JsonObject): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: ErrorDetailSchema, value: { reason, details: details ?? undefined } },
  ]);
}

export const notFound = (what: string, details?: JsonObject) =>
  rpcError(Code.NotFound, 'NOT_FOUND', `${what} not found`, details);

export const invalidArgument = (message: string, details?: JsonObject) =>
  rpcError(Code.InvalidArgument, 'VALIDATION_ERROR', message, details);

/** The Connect code of each kind of domain error (the gateway maps the code to the HTTP status). */
const CODE_OF: Record<DomainErrorKind, Code> = {
  'not-found': Code.NotFound,
  invalid: Code.InvalidArgument,
  'already-exists': Code.AlreadyExists,
  conflict: Code.Aborted,
  refused: Code.FailedPrecondition,
  forbidden: Code.PermissionDenied,
  unavailable: Code.Unavailable,
};

/**
 * A domain error as the caller gets it: its Connect code, public reason,
 * message and details, exactly what rpcError builds. Anything else is
 * returned as it is.
 */
export function toConnectError(err: unknown): unknown {
  if (!isDomainError(err)) return err;
  return rpcError(CODE_OF[err.kind], err.reason, err.message, err.details);
}

/** Reads what rpcError attached; errors from elsewhere have no reason. */
export function errorReason(err: ConnectError): { reason?: string; details?: JsonObject } {
  const [detail] = err.findDetails(ErrorDetailSchema);
  if (!detail) return {};
  return { reason: detail.reason || undefined, details: detail.details as JsonObject | undefined };
}

/** An error meant for the caller (any ConnectError but Internal and Unknown); anything else is a bug, masked as Internal. */
export function isPublicError(err: unknown): err is ConnectError {
  return err instanceof ConnectError && err.code !== Code.Internal && err.code !== Code.Unknown;
}

/**
 * One item's error in a batched call, carrying what the ConnectError of a
 * single call would have: the gateway turns it back with fromItemError and
 * maps it like any other. Unexpected errors become a bare Internal, as
 * they do for a single call (the caller logs them with their stack).
 */
export function toItemError(thrown: unknown): ItemError {
  const err = toConnectError(thrown);
  if (isPublicError(err)) {
    const { reason, details } = errorReason(err);
    return create(ItemErrorSchema, { code: err.code, message: err.rawMessage, detail: reason ? { reason, details } : undefined });
  }
  return create(ItemErrorSchema, { code: Code.Internal, message: 'internal error' });
}

export function fromItemError(error: ItemError): ConnectError {
  const detail = error.detail;
  return detail?.reason
    ? rpcError(error.code as Code, detail.reason, error.message, detail.details as JsonObject | undefined)
    : new ConnectError(error.message, error.code as Code);
}
