// `npm run openapi:snapshot`: writes the OpenAPI document the gateway code
// builds (no backend needed) to apps/gateway/src/openapi/openapi.snapshot.json,
// the committed copy its identity test compares with. Run it when a
// contract change is intended; the diff of that file is the change to review.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './bundle-ts.mjs';
import { gatewayOpenApiDocument } from './openapi-document.mjs';

const out = join(root, 'apps', 'gateway', 'src', 'openapi', 'openapi.snapshot.json');
const document = await gatewayOpenApiDocument();
// As print-document.ts prints it (documentText): two-space JSON and a final newline.
writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
console.error(`[openapi:snapshot] wrote ${out.slice(root.length + 1)} (${Object.keys(document.paths).length} paths)`);
