export { runService, type ServiceDefinition, type ServiceDeps, type ServiceParts } from './run-service';
export { PeriodicTask, type PeriodicTaskOptions } from './periodic-task';
export { maintenanceArgs, withServiceDatabase, type MaintenanceArgs } from './maintenance-command';
export { LEASES_ONLY, ProcessLiveness, type HolderLiveness, type ProcessLivenessOptions } from './process-liveness';
export { PeriodicRecovery, recoverIsolated, type RecoveryOptions } from './periodic-recovery';
export { takeOverAbandoned, type LeaseTakeover } from './take-over-abandoned';
