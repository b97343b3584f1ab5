import pino from 'pino';
import { currentRequestId } from './request-context';

export type Logger = pino.Logger;

/**
 * JSON logs on stdout, one line per record, with the service name and the
 * current request id so one request can be followed across services.
 */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const requestId = currentRequestId();
      return requestId ? { requestId } : {};
    },
  });
}
