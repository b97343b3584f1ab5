import type { RequestHandler } from 'express';
import type { ApiRouter } from './api-router';
import { ApiError } from './api-error';

interface KnownPath {
  pattern: RegExp;
  /** Per segment, whether it is literal: the path with more literal segments first owns a URL. */
  literal: boolean[];
  allow: string;
  methods: Set<string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function knownPath(path: string, methods: Iterable<string>): KnownPath {
  const segments = path.split('/').slice(1);
  const allowed = new Set([...methods].map((m) => m.toUpperCase()));
  if (allowed.has('GET')) allowed.add('HEAD');
  allowed.add('OPTIONS');
  return {
    // As Express matches: case-insensitive, a parameter is one non-empty segment, a trailing slash is optional.
    pattern: new RegExp(`^/${segments.map((s) => (s.startsWith(':') ? '[^/]+' : escapeRegExp(s))).join('/')}/?$`, 'i'),
    literal: segments.map((s) => !s.startsWith(':')),
    allow: [...allowed].sort().join(', '),
    methods: allowed,
  };
}

/** Literal segments win from the left: /rewards/redeem owns POST /rewards/redeem over /rewards/:rewardId. */
function moreSpecific(a: KnownPath, b: KnownPath): number {
  for (let i = 0; i < Math.min(a.literal.length, b.literal.length); i += 1) {
    if (a.literal[i] !== b.literal[i]) return a.literal[i] ? -1 : 1;
  }
  return 0;
}

/**
 * Runs before the router's routes (and before the body is read): a URL of
 * a documented path asked with a method that path does not serve answers
 * 405 with `Allow` (RFC 9110) and the error envelope, instead of falling
 * through to another route or the 404 of unknown paths; OPTIONS answers 204
 * with the same `Allow`. A URL two paths match belongs to the more specific
 * one, as in the document (GET /rewards/redeem is 405, not a reward "redeem").
 */
export function methodGuard(api: ApiRouter): RequestHandler {
  let paths: KnownPath[] | undefined;
  return (req, res, next) => {
    // Built at the first request, when every route is registered.
    paths ??= [...api.methodsByPath].map(([path, methods]) => knownPath(path, methods)).sort(moreSpecific);
    const owner = paths.find((p) => p.pattern.test(req.path));
    if (!owner) return next();
    if (req.method === 'OPTIONS') {
      res.setHeader('Allow', owner.allow);
      res.status(204).end();
      return;
    }
    if (owner.methods.has(req.method)) return next();
    next(new ApiError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed here; allowed: ${owner.allow}.`, undefined, { Allow: owner.allow }));
  };
}
