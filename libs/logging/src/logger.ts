import { trace } from '@opentelemetry/api';
import pino from 'pino';
import { currentRequestId } from './request-context';

export type Logger = pino.Logger;

/**
 * JSON logs on stdout, one line per record, with the service name and the
 * current request id so one request can be followed across services, and
 * when tracing is on the current trace and span ids (traceId, spanId), so a
 * line leads to its trace and a trace to its lines. With tracing off there
 * is no active span and nothing is added.
 */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const requestId = currentRequestId();
      const fields: { requestId?: string; traceId?: string; spanId?: string } = requestId ? { requestId } : {};
      const span = trace.getActiveSpan();
      if (span) {
        const { traceId, spanId } = span.spanContext();
        fields.traceId = traceId;
        fields.spanId = spanId;
      }
      return fields;
    },
  });
}
