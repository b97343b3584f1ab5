// One TypeScript entry bundled for Node 20 the way every tool here needs
// it: our code and the @ris/* libraries inlined (paths from
// tsconfig.base.json), npm packages left to node_modules.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles `entry` into `out` (both absolute), CommonJS with a source map. */
export function bundleTs(entry, out) {
  return build({
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    packages: 'external',
    sourcemap: true,
    tsconfig: join(root, 'tsconfig.base.json'),
    logLevel: 'warning',
  });
}
