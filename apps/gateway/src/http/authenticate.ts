import { timingSafeEqual, createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AppDirectory } from '../tenancy/app-directory';
import { ApiError } from './api-error';

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1] : null;
}

const unauthenticated = (message: string) =>
  new ApiError(401, 'UNAUTHENTICATED', message, undefined, { 'WWW-Authenticate': 'Bearer' });

/** Resolves the API key to its app; every /api/v1 handler then runs as that app. */
export function authenticateApiKey(directory: AppDirectory): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token) return next(unauthenticated('Send your API key as Authorization: Bearer <API_KEY>.'));
    const appId = await directory.authenticate(token);
    if (!appId) return next(unauthenticated('The API key is unknown, malformed or revoked.'));
    res.locals.appId = appId;
    next();
  };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Guards /admin/v1 with the ADMIN_TOKEN setting (compared in constant time). */
export function authenticateAdmin(adminToken: string): RequestHandler {
  const expected = digest(adminToken);
  return (req, _res, next) => {
    const token = bearerToken(req.header('authorization'));
    if (!token || !timingSafeEqual(digest(token), expected)) {
      return next(unauthenticated('The admin API needs Authorization: Bearer <ADMIN_TOKEN>.'));
    }
    next();
  };
}
