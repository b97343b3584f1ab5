import type { DescService } from '@bufbuild/protobuf';
import type { Client } from '@connectrpc/connect';
import type { ServiceCalls } from '@ris/contracts';
import { DomainError, type DomainErrorKind, type ErrorDetails } from '@ris/domain-errors';
import { Code, ConnectError, errorReason } from './rpc-error';

/**
 * The codes a service of this project refuses a call with when it recorded
 * nothing for it, each with the kind of domain error that toConnectError
 * turns back into the same code.
 */
const REFUSALS = new Map<Code, DomainErrorKind>([
  [Code.FailedPrecondition, 'refused'],
  [Code.InvalidArgument, 'invalid'],
  [Code.NotFound, 'not-found'],
  [Code.Aborted, 'conflict'],
  [Code.PermissionDenied, 'forbidden'],
]);

/**
 * Another service's refusal (one of those codes, with the public reason
 * its rpcError attached) as the DomainError that answers the same to this
 * service's caller; null for anything else, whose outcome is unknown:
 * unavailable, deadline, internal, and errors the transport makes up
 * without a reason (a reset connection arrives as Aborted "read ECONNRESET").
 */
export function remoteRefusal(err: unknown): DomainError | null {
  if (!(err instanceof ConnectError)) return null;
  const kind = REFUSALS.get(err.code);
  if (!kind) return null;
  const { reason, details } = errorReason(err);
  return reason ? new DomainError(kind, reason, err.rawMessage, details as ErrorDetails | undefined) : null;
}

/**
 * A client's unary calls as a domain module makes them (ServiceCalls),
 * the callee's refusals raised as domain errors (remoteRefusal) so the
 * domain tells "refused" from "outcome unknown" without the transport;
 * anything else is raised as it came.
 */
export function refusalsAsDomainErrors<T extends DescService>(service: T, client: Client<T>): ServiceCalls<T> {
  const methods = client as unknown as Record<string, (request: unknown) => Promise<unknown>>;
  const calls: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') continue;
    calls[method.localName] = (request) =>
      methods[method.localName](request).catch((err: unknown) => {
        throw remoteRefusal(err) ?? err;
      });
  }
  return calls as unknown as ServiceCalls<T>;
}
