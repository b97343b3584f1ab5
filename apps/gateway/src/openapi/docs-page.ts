import express, { Router } from 'express';
import { absolutePath } from 'swagger-ui-dist';

const page = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Referral and Incentive Service API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#reference', deepLinking: true });</script>
</body>
</html>`;

/** /docs: a readable reference of the OpenAPI document, served offline from swagger-ui-dist. */
export function docsPage(specUrl: string): Router {
  const router = Router();
  router.use('/assets', express.static(absolutePath(), { index: false, maxAge: '1d' }));
  router.get('/', (_req, res) => {
    res.type('html').send(page(specUrl));
  });
  return router;
}
