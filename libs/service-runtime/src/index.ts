export { runService, type ServiceDefinition, type ServiceDeps, type ServiceParts } from './run-service';
