// `npm run dashboard:api`: regenerates the dashboard's API types
// (apps/dashboard/src/api/schema.d.ts) from the OpenAPI document the gateway
// code builds, with no backend running. `--print` writes them to stdout
// instead (the dashboard's staleness test compares that with the file).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { root } from './bundle-ts.mjs';
import { gatewayOpenApiDocument } from './openapi-document.mjs';

const out = join(root, 'apps', 'dashboard', 'src', 'api', 'schema.d.ts');
const document = await gatewayOpenApiDocument();
const types = COMMENT_HEADER + astToString(await openapiTS(document));

if (process.argv.includes('--print')) {
  process.stdout.write(types);
} else {
  writeFileSync(out, types);
  console.error(`[dashboard:api] wrote ${out.slice(root.length + 1)} (${Object.keys(document.paths).length} paths)`);
}
