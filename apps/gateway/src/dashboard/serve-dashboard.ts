import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router, type Response } from 'express';
import { notFoundHandler } from '../http/error-response';
import { securityHeaders } from '../http/security-headers';

/** Shown when the dashboard was not built (no index.html in DASHBOARD_DIR): says so, with no script at all. */
const PLACEHOLDER = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body>
  <h1>The dashboard is not built</h1>
  <p>Build it with <code>npm run build</code> (or <code>npm start</code>, which builds it), then reload this page.</p>
</body>
</html>`;

// index.html names the current hashed bundles: never kept, so a new release is picked up at once.
const noStore = (res: Response) => res.setHeader('Cache-Control', 'no-store');

/**
 * /dashboard: the single-page app built into `dir` (dist/apps/dashboard),
 * from this origin like the API it calls. Its hashed assets (assets/) may be
 * cached for a year; index.html, answered for every client-side route, is
 * never cached. Every answer carries the security headers.
 */
export function dashboardRoutes(dir: string): Router {
  const router = Router();
  const index = join(dir, 'index.html');
  router.use(securityHeaders);
  router.use('/assets', express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' }), notFoundHandler);
  // Other files (an icon): revalidated; an HTML page never kept.
  router.use(
    express.static(dir, { index: false, setHeaders: (res, path) => res.setHeader('Cache-Control', path.endsWith('.html') ? 'no-store' : 'no-cache') }),
  );
  router.get(/.*/, (_req, res) => {
    noStore(res);
    if (existsSync(index)) res.sendFile(index);
    else res.status(200).type('html').send(PLACEHOLDER);
  });
  return router;
}
