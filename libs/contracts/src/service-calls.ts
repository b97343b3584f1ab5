import type { DescMethodUnary, DescService, MessageInitShape, MessageShape } from '@bufbuild/protobuf';

/**
 * The unary calls of a service, as a domain module makes them: a Connect
 * client (`createServiceClient` of @ris/rpc) is one, and so is an
 * in-process stand-in, so a domain module names what it calls without
 * importing the transport (docs/structure.md, "The layering, enforced by
 * lint"). Streaming methods are left out (none is called that way).
 */
export type ServiceCalls<S extends DescService> = {
  [M in keyof S['method'] as S['method'][M] extends DescMethodUnary ? M : never]: S['method'][M] extends DescMethodUnary<infer I, infer O>
    ? (request: MessageInitShape<I>) => Promise<MessageShape<O>>
    : never;
};
