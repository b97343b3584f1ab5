import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

// The committed types must be exactly what `npm run sdk:api` makes from the
// document the gateway code builds now: a change of the API without
// regenerating fails here (as the dashboard's and the protos' checks do).
describe('the SDK types (src/generated/openapi.ts)', () => {
  it('match a fresh generation from the gateway’s OpenAPI document', () => {
    const fresh = execFileSync(process.execPath, ['tools/sdk-api.mjs', '--print'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const committed = readFileSync(join(__dirname, 'generated', 'openapi.ts'), 'utf8');
    expect(committed === fresh ? 'fresh' : 'src/generated/openapi.ts is stale: run `npm run sdk:api` and commit it').toBe('fresh');
  });
});
