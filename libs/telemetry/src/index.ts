export { recordedPath } from './credential-paths';
export { reportDependencies, type DependencyCheck } from './dependency-gauge';
export { metricsEnabled, startMetricsServer, type MetricsServer } from './metrics-server';
export { instrumentRedis } from './redis-metrics';
export { SpanKind, currentTraceparent, inSpan, traceHeaders, type SpanOptions } from './trace-context';
export { flushTraces, startTracingIfConfigured, tracingEnabled } from './tracing';
