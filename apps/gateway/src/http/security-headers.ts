import type { RequestHandler } from 'express';

/**
 * The dashboard's content policy: only this origin's scripts (no inline
 * script, so an injected one does not run), inline style attributes
 * (Mantine sets them), images from here or data: URLs, fetches to here
 * only, never framed (clickjacking), no <base> and forms to here only.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Headers of every dashboard and console answer. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', DASHBOARD_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
};
