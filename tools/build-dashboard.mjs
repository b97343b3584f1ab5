// Builds the operator dashboard (apps/dashboard, Vite) into dist/apps/dashboard,
// which the gateway serves at /dashboard. Skipped when nothing it is built
// from changed since the last build (its sources, its config, the lockfile).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './bundle-ts.mjs';

const app = join(root, 'apps', 'dashboard');
const built = join(root, 'dist', 'apps', 'dashboard', 'index.html');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** Whether dist/apps/dashboard is older than anything it is built from. */
export function dashboardStale() {
  if (!existsSync(built)) return true;
  const inputs = [join(app, 'src'), join(app, 'index.html'), join(app, 'vite.config.ts'), join(root, 'package-lock.json')];
  return Math.max(...inputs.filter(existsSync).map(newest)) > statSync(built).mtimeMs;
}

/** Builds the dashboard when stale; says which it did. */
export async function buildDashboard({ force = false } = {}) {
  if (!force && !dashboardStale()) return 'unchanged';
  // Loaded only when needed: a machine with production dependencies only never builds it.
  const { build } = await import('vite');
  await build({ configFile: join(app, 'vite.config.ts'), root: app, logLevel: 'warn' });
  return 'built';
}
