import type { RequestHandler } from 'express';
import type { ApiRouter } from './api-router';
import { ApiError } from './api-error';

/**
 * A known path asked with a method it does not serve answers 405 with
 * `Allow` (RFC 9110) and the error envelope, instead of falling through to
 * the 404 of unknown paths; OPTIONS answers 204 with the same `Allow`.
 * Installed after every route of the router, so a path served by an
 * earlier, more specific route (e.g. /rewards/validate before
 * /rewards/:rewardId) keeps its answer.
 */
export function answerUndeclaredMethods(api: ApiRouter): void {
  for (const [path, methods] of api.methodsByPath) {
    const allowed = [...methods].map((m) => m.toUpperCase());
    if (allowed.includes('GET')) allowed.push('HEAD');
    allowed.push('OPTIONS');
    const allow = allowed.sort().join(', ');
    const handler: RequestHandler = (req, res, next) => {
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', allow);
        res.status(204).end();
        return;
      }
      next(new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${allow}.`, undefined, { Allow: allow }));
    };
    api.router.all(path, handler);
  }
}
