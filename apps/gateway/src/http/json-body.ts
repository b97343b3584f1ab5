import express, { type RequestHandler } from 'express';
import { ApiError } from './api-error';

const BODY_LIMIT = '1mb';
const parseJson = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });

/**
 * POST/PATCH/PUT bodies must be JSON (415 otherwise), at most 1 MiB (413)
 * and parseable (400). A bodiless POST (e.g. claim) is fine.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (!['POST', 'PATCH', 'PUT'].includes(req.method)) return next();
  const length = Number(req.header('content-length') ?? '0');
  const chunked = req.header('transfer-encoding') !== undefined;
  if (length === 0 && !chunked) {
    req.body = undefined;
    return next();
  }
  if (!req.is('application/json')) {
    return next(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json.'));
  }
  parseJson(req, res, next);
};
