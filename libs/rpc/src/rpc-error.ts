import type { JsonObject } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { ErrorDetailSchema } from '@ris/contracts';

export { Code, ConnectError };

/**
 * The error a service raises for anything the caller should see: a Connect
 * code (which decides the HTTP status in the gateway) plus the public error
 * code of DECISIONS.md §1 (reason) and optional details.
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

/** Reads what rpcError attached; errors from elsewhere have no reason. */
export function errorReason(err: ConnectError): { reason?: string; details?: JsonObject } {
  const [detail] = err.findDetails(ErrorDetailSchema);
  if (!detail) return {};
  return { reason: detail.reason || undefined, details: detail.details as JsonObject | undefined };
}

