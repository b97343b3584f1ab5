export { freePort } from './free-port';
export { BACKEND_SERVICES, ProcessStack, type AppName, type BackendService, type StackOptions } from './process-stack';
export { readInfraEnv } from './infra-env';
