import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..', '..', '..');

// The committed API types must be exactly what `npm run dashboard:api` makes
// from the document the gateway code builds now (as libs/contracts checks its
// generated code): a gateway change without regenerating fails here.
describe('the API types (src/api/schema.d.ts)', () => {
  it('match a fresh generation from the gateway’s OpenAPI document', () => {
    const fresh = execFileSync(process.execPath, ['tools/dashboard-api.mjs', '--print'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const committed = readFileSync(join(__dirname, 'schema.d.ts'), 'utf8');
    expect(committed === fresh, 'src/api/schema.d.ts is stale: run `npm run dashboard:api` and commit it').toBe(true);
  }, 60_000);
});
