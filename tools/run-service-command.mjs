// Bundles one TypeScript command of a service and runs it with this
// process's arguments and environment. Used by the rebuild commands in
// this folder.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleTs, root } from './bundle-ts.mjs';

/** `entry` relative to the repository; `name` names the bundle in dist/tools. Exits with the command's status. */
export async function runServiceCommand(entry, name) {
  const out = join(root, 'dist', 'tools', `${name}.js`);
  await bundleTs(join(root, entry), out);
  const run = spawnSync(process.execPath, ['--enable-source-maps', out, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
  process.exit(run.status ?? 1);
}
