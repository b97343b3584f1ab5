// Bundles every app (its own code and the @ris/* libraries) into
// dist/apps/<app>/main.js; npm packages stay external and load from
// node_modules; builds the dashboard (apps/dashboard, Vite) into
// dist/apps/dashboard, which the gateway serves at /dashboard. Used by
// `npm start`, the end-to-end tests and the Dockerfile.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { bundleTs, root } from './bundle-ts.mjs';

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

/** The dashboard's Vite build, when the app is there (the gateway serves a page saying it is not built otherwise). */
async function buildDashboard() {
  const dir = join(root, 'apps', 'dashboard');
  const configFile = ['vite.config.ts', 'vite.config.mts', 'vite.config.js'].map((name) => join(dir, name)).find(existsSync);
  if (!configFile || (only.length > 0 && !only.includes('dashboard'))) return 0;
  const { build } = await import('vite');
  // Where the gateway looks for it (its DASHBOARD_DIR default), whatever the app's config says.
  await build({ configFile, root: dir, logLevel: 'warn', build: { outDir: join(root, 'dist', 'apps', 'dashboard'), emptyOutDir: true } });
  return 1;
}

const started = Date.now();
const [dashboards] = await Promise.all([buildDashboard(), ...targets.map(({ entry, out }) => bundleTs(entry, out))]);
console.error(`[build] ${targets.length} bundles${dashboards ? ' and the dashboard' : ''} built in ${Date.now() - started} ms`);
