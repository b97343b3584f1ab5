export { healthService, isReady, type ReadinessCheck } from './health';
export { createServiceClient, type ServiceClientOptions } from './rpc-client';
export { Code, ConnectError, errorReason, invalidArgument, notFound, rpcError } from './rpc-error';
export { pageFromRequest, pageReply, requiredField } from './request-fields';
export { rpcService, startRpcServer, type RpcServer, type RpcServerOptions, type RpcService } from './rpc-server';
