import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import express, { type RequestHandler } from 'express';
import { ApiError, validationError } from './api-error';

const BODY_LIMIT = '1mb';
/** Deepest nesting of a request body: room for metadata's 32 levels inside a body, far from any stack limit. */
export const MAX_BODY_DEPTH = 64;

/** Requests whose raw body bytes were not UTF-8 (the parser would have read them with U+FFFD in their place). */
const notUtf8 = new WeakSet<IncomingMessage>();

/**
 * The raw bytes are checked before they are decoded: the decoder replaces
 * what is not UTF-8 (an invalid start byte, an overlong form, an encoded
 * surrogate half, a truncated sequence) with U+FFFD, so two different ids
 * would read as one. isUtf8 is the WHATWG decoder's strict rule.
 */
const parseJson = express.json({
  limit: BODY_LIMIT,
  strict: false,
  type: () => true,
  verify: (req, _res, raw, encoding) => {
    if (encoding.toLowerCase() === 'utf-8' && !isUtf8(raw)) notUtf8.add(req);
  },
});

/** A UTF-16 surrogate without its partner: not Unicode, so not storable or encodable as UTF-8. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const fieldName = (path: Array<string | number>) =>
  ['body', ...path].map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');

/**
 * Why a parsed body cannot be taken whatever its fields (too deep, or a
 * key or string holding a lone surrogate), with the field's path; null when
 * it can. Iterative, so a body of 100,000 nested arrays is refused here
 * instead of overflowing the stack of whatever recurses into it next (the
 * validation, the idempotency hash, protobuf).
 */
export function bodyProblem(body: unknown): { field: string; message: string } | null {
  const stack: Array<{ value: unknown; path: Array<string | number> }> = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return { field: fieldName(path), message: 'must be valid Unicode (no unpaired surrogate)' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (path.length >= MAX_BODY_DEPTH) return { field: fieldName(path), message: `nests deeper than ${MAX_BODY_DEPTH} levels` };
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return { field: fieldName(path), message: 'has a key that is not valid Unicode (an unpaired surrogate)' };
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return null;
}

/**
 * POST, PUT and PATCH bodies must be JSON (415 otherwise), at most 1 MiB (413),
 * UTF-8 bytes (400), parseable (400) and I-JSON (RFC 7493: valid Unicode, 400) and at most 64
 * levels deep (400). A bodiless POST (e.g. claim) is fine. Other methods'
 * bodies are not read: no operation takes one, and a method a path does not
 * serve must reach its 405.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST' && req.method !== 'PATCH' && req.method !== 'PUT') return next();
  const length = Number(req.header('content-length') ?? '0');
  const chunked = req.header('transfer-encoding') !== undefined;
  if (length === 0 && !chunked) {
    req.body = undefined;
    return next();
  }
  if (!req.is('application/json')) {
    return next(new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON with Content-Type: application/json.'));
  }
  parseJson(req, res, (err?: unknown) => {
    if (notUtf8.has(req)) {
      return next(validationError('body: must be UTF-8 (its bytes are not valid UTF-8)', { issues: [{ field: 'body', message: 'is not valid UTF-8' }] }));
    }
    if (err) return next(err);
    const problem = bodyProblem(req.body);
    if (!problem) return next();
    next(validationError(`${problem.field}: ${problem.message}`, { issues: [problem] }));
  });
};
