export { healthService, isReady, type ReadinessCheck } from './health';
export { createServiceClient, type ServiceClientOptions } from './rpc-client';
export { Code, ConnectError, errorReason, fromItemError, invalidArgument, isPublicError, notFound, rpcError, toConnectError, toItemError } from './rpc-error';
export { refusalsAsDomainErrors, remoteRefusal } from './remote-refusals';
export { characterCount, pageFromRequest, pageReply, requiredField } from './request-fields';
export { rpcService, startRpcServer, type RpcServer, type RpcServerOptions, type RpcService, type RpcServiceOptions } from './rpc-server';
export { tenantOf, type UnscopedMethods } from './tenant';
export { messageFields, type MessageFields } from './message-fields';
