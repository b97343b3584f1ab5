export { freePort } from './free-port';
export { BACKEND_SERVICES, DEFAULT_PORTS, httpUrl, reachableHost, type AppName, type BackendService } from './apps';
export { ListenSettingsError, PORT_SETTINGS, URL_SETTINGS, listenSettings, type ListenSettings } from './listen-settings';
export { ProcessStack, describeGiveUp, type GivenUp, type StackOptions, type SupervisionOptions } from './process-stack';
export { DEFAULT_SUPERVISION, RestartPolicy, type SupervisionPolicy } from './restart-policy';
export { readInfraEnv } from './infra-env';
export { appDatabase, removeRunData, type RunData } from './run-data';
