// The OpenAPI document the gateway code builds, with no backend running:
// apps/gateway/src/openapi/print-document.ts bundled and run. Shared by the
// generators of typed clients (tools/dashboard-api.mjs, tools/sdk-api.mjs) and
// the committed snapshot of the contract (tools/openapi-snapshot.mjs).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleTs, root } from './bundle-ts.mjs';

// Bundled inside the repository so that its npm packages resolve from node_modules.
const printer = join(root, 'dist', 'tools', 'print-openapi.js');

export async function gatewayOpenApiDocument() {
  await bundleTs(join(root, 'apps', 'gateway', 'src', 'openapi', 'print-document.ts'), printer);
  return JSON.parse(execFileSync(process.execPath, [printer], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
}
