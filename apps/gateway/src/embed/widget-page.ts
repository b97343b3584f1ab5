import express, { Router, type Request, type Response } from 'express';
import { notFoundHandler } from '../http/error-response';
import type { EmbedTokens } from './embed-token';

export const EMBED_BASE = '/embed';
/** The widget's page, relative to the gateway's root. */
export const WIDGET_PAGE = `${EMBED_BASE}/referrals`;

/**
 * The page of the widget: a shell whose script (assets/widget.js) reads the
 * token and the theme from this page's URL and the user's view from
 * /embed/v1. It holds no data of its own.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invite your friends</title>
<link rel="stylesheet" href="${EMBED_BASE}/assets/widget.css">
<script src="${EMBED_BASE}/assets/widget.js" defer></script>
</head>
<body>
<main id="ris-widget" class="ris-widget" aria-busy="true" aria-live="polite"><p class="ris-muted">Loading…</p></main>
</body>
</html>
`;

/**
 * Who may frame the page. With a token that is ours (valid or expired, whose
 * claims are then still signed): this origin and the token's allowed
 * origins (POST /api/v1/embed-tokens `allowedOrigins`), so another site
 * cannot frame a user's widget to trick them into clicks. Without such a
 * token the page can show nothing but an error, which nobody can abuse
 * framed: any page may frame it, so an embedding page shows that error
 * instead of a blocked frame.
 */
function frameAncestors(tokens: EmbedTokens, token: unknown): string {
  if (typeof token !== 'string') return '*';
  const checked = tokens.check(token);
  if (checked.kind === 'invalid') return '*';
  return ["'self'", ...checked.claims.origins].join(' ');
}

function widgetCsp(ancestors: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // The theme's logo may be any https image.
    "img-src 'self' data: https:",
    "connect-src 'self'",
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * /embed: the widget page (/embed/referrals?token=…), its script and style
 * (assets/, built from src/embed/widget into `dir`), and the script-tag
 * loader (loader.js) that embedding pages include from their own site.
 */
export function widgetRoutes(tokens: EmbedTokens, dir: string): Router {
  const router = Router();
  const common = (res: Response) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The page's URL carries the token: never sent on as a Referer (to a theme's logo host, say).
    res.setHeader('Referrer-Policy', 'no-referrer');
  };
  router.get('/referrals', (req: Request, res: Response) => {
    common(res);
    res.setHeader('Content-Security-Policy', widgetCsp(frameAncestors(tokens, req.query.token)));
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).type('html').send(PAGE);
  });
  // Other sites load the loader with a script tag and their pages frame the widget: both may be cross-origin.
  const assets = express.static(dir, {
    index: false,
    setHeaders: (res) => {
      common(res);
      res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      // Not content-hashed (the loader's URL is in customers' pages): revalidated after 5 minutes.
      res.setHeader('Cache-Control', 'public, max-age=300');
    },
  });
  router.get(['/loader.js', '/assets/widget.js', '/assets/widget.css'], assets);
  router.use(notFoundHandler);
  return router;
}
