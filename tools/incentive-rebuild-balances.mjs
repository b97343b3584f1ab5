// Recomputes every incentive balance from the ledger and reports drift
// (apps/incentive-service/src/balance-rebuild.ts).
//
//   MONGODB_URL=… MONGODB_DB=ris_incentive node tools/incentive-rebuild-balances.mjs [--app <appId>] [--fix]
//
// Without --fix it only reads. With --fix a drifted balance is replaced by
// its recomputation (compare-and-set: safe while the service runs) and
// entries a crashed writer left unapplied are applied.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'tools', 'incentive-rebuild-balances.js');
await build({
  entryPoints: [join(root, 'apps', 'incentive-service', 'src', 'balance-rebuild-command.ts')],
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
const run = spawnSync(process.execPath, ['--enable-source-maps', out, ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);
