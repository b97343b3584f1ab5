// `npm run example:signup`: builds signup-flow.ts with the SDK from this
// repository (libs/sdk, as the published @referral-incentive/sdk would be)
// and runs it. RIS_API_URL (default http://127.0.0.1:8080) and RIS_API_KEY
// say where; without RIS_API_KEY the key `npm start` made (.run/dev-app.json).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
// Inside the repository, so that the SDK's dependency resolves from node_modules.
const out = join(root, 'dist', 'examples', 'signup-flow.cjs');

await build({
  entryPoints: [join(here, 'signup-flow.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  alias: { '@referral-incentive/sdk': join(root, 'libs', 'sdk', 'src', 'index.ts') },
  logLevel: 'warning',
});

const env = { ...process.env };
const devApp = join(root, process.env.RIS_RUN_DIR ?? '.run', 'dev-app.json');
if (!env.RIS_API_KEY && existsSync(devApp)) env.RIS_API_KEY = JSON.parse(readFileSync(devApp, 'utf8')).apiKey;
const result = spawnSync(process.execPath, [out], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
