export { runService, type ServiceDefinition, type ServiceDeps, type ServiceParts } from './run-service';
export { PeriodicTask, type PeriodicTaskOptions } from './periodic-task';
