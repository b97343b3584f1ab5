import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A customer's web page on an origin of its own (another port of
 * 127.0.0.1), for the referral widget's browser tests: each path answers
 * the HTML the test gave it, as the app's own site would serve the page
 * that embeds the widget.
 */
export class EmbeddingPage {
  private readonly pages = new Map<string, string>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<EmbeddingPage> {
    const server = createServer();
    const site = new EmbeddingPage(server);
    server.on('request', (req, res) => {
      const html = site.pages.get(new URL(req.url ?? '/', 'http://x').pathname);
      res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(html ?? 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return site;
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Serves `html` at `path`; returns the page's URL. */
  serve(path: string, html: string): string {
    this.pages.set(path, html);
    return `${this.origin}${path}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The page of a shop that embeds the widget with its script tag, data- options as given. */
export function shopPage(gatewayUrl: string, data: Record<string, string>): string {
  const attributes = Object.entries(data)
    .map(([name, value]) => ` data-${name}="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme shop: your account</title>
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1f2933}header{background:#111827;color:#fff;padding:14px 20px;font-weight:700}main{max-width:760px;margin:20px auto;padding:0 12px}</style>
</head>
<body>
<header>Acme shop</header>
<main>
<h1 style="font-size:1.2rem">Your account</h1>
<script src="${gatewayUrl}/embed/loader.js"${attributes} async></script>
</main>
</body>
</html>`;
}
