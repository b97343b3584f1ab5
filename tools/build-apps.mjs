// Bundles every app (its own code and the @ris/* libraries) into
// dist/apps/<app>/main.js; npm packages stay external and load from
// node_modules (the gateway's referral widget for browsers, next to it in
// dist/apps/gateway/embed). The operator dashboard is built with Vite into
// dist/apps/dashboard (only when its sources changed). Used by `npm start`,
// the end-to-end tests and the Dockerfile.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleTs, root } from './bundle-ts.mjs';
import { buildDashboard } from './build-dashboard.mjs';
import { buildWidget } from './build-widget.mjs';

const only = process.argv.slice(2);
const apps = readdirSync(join(root, 'apps')).filter(
  (name) => existsSync(join(root, 'apps', name, 'src', 'main.ts')) && (only.length === 0 || only.includes(name)),
);

const targets = apps.map((app) => ({ entry: join(root, 'apps', app, 'src', 'main.ts'), out: join(root, 'dist', 'apps', app, 'main.js') }));
// The local launcher behind `npm start`.
if (only.length === 0) {
  targets.push({ entry: join(root, 'tools', 'local-stack.ts'), out: join(root, 'dist', 'tools', 'local-stack.js') });
  // The process launcher as a module, for the end-to-end tests' global set-up.
  targets.push({ entry: join(root, 'libs', 'stack', 'src', 'index.ts'), out: join(root, 'dist', 'tools', 'stack.js') });
}

const withDashboard = only.length === 0 || only.includes('dashboard');
const started = Date.now();
const [dashboard] = await Promise.all([
  withDashboard ? buildDashboard() : 'not asked for',
  // The referral widget the gateway serves at /embed.
  apps.includes('gateway') ? buildWidget() : undefined,
  ...targets.map(({ entry, out }) => bundleTs(entry, out)),
]);
console.error(`[build] ${targets.length} bundles built, dashboard ${dashboard}, in ${Date.now() - started} ms`);
