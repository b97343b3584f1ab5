// `npm run sdk:api`: regenerates the SDK's API types
// (libs/sdk/src/generated/openapi.ts) from the OpenAPI document the gateway
// code builds, with no backend running: the operations of /api/v1, which an
// app's backend calls with its API key. `--print` writes them to stdout
// instead (the SDK's staleness test compares that with the file). A field
// with a default stays optional (defaultNonNullable: false): requests may
// leave it out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { root } from './bundle-ts.mjs';
import { gatewayOpenApiDocument } from './openapi-document.mjs';

const out = join(root, 'libs', 'sdk', 'src', 'generated', 'openapi.ts');
const document = await gatewayOpenApiDocument();
document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith('/api/v1/') && path !== '/api/v1/openapi.json'));
const types = `${COMMENT_HEADER}// Regenerate with \`npm run sdk:api\`.\n\n${astToString(await openapiTS(document, { defaultNonNullable: false }))}`;

if (process.argv.includes('--print')) {
  process.stdout.write(types);
} else {
  writeFileSync(out, types);
  console.error(`[sdk:api] wrote ${out.slice(root.length + 1)} (${Object.keys(document.paths).length} paths)`);
}
