import type { RequestHandler } from 'express';
import type { Logger } from '@ris/logging';
import { recordedPath } from '@ris/telemetry';
import { contextOf } from './request-context';

/** One log line per request, under its request id (bound by requestId middleware). */
export function accessLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          method: req.method,
          path: recordedPath(req.originalUrl),
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          appId: res.locals.appId as string | undefined,
          // Who, when a dashboard session made it (an API key's requests are its app's).
          operatorId: contextOf(res).operator?.operatorId,
        },
        'request',
      );
    });
    next();
  };
}
