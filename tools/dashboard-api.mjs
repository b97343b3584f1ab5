// `npm run dashboard:api`: regenerates the dashboard's API types
// (apps/dashboard/src/api/schema.d.ts) from the OpenAPI document the gateway
// code builds, with no backend running. `--print` writes them to stdout
// instead (the dashboard's staleness test compares that with the file).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { bundleTs, root } from './bundle-ts.mjs';

const out = join(root, 'apps', 'dashboard', 'src', 'api', 'schema.d.ts');
// Bundled inside the repository so that its npm packages resolve from node_modules.
const printer = join(root, 'dist', 'tools', 'print-openapi.js');

await bundleTs(join(root, 'apps', 'gateway', 'src', 'openapi', 'print-document.ts'), printer);
const document = JSON.parse(execFileSync(process.execPath, [printer], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
const types = COMMENT_HEADER + astToString(await openapiTS(document));

if (process.argv.includes('--print')) {
  process.stdout.write(types);
} else {
  writeFileSync(out, types);
  console.error(`[dashboard:api] wrote ${out.slice(root.length + 1)} (${Object.keys(document.paths).length} paths)`);
}
