import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentText, servedDocument } from './served-document';

// The public contract, byte for byte: the document the gateway builds must
// be the committed openapi.snapshot.json, so every change to the contract
// shows in review as a change of that file. Intended? `npm run
// openapi:snapshot` writes the new one.
describe('the OpenAPI document', () => {
  it('is the committed snapshot (npm run openapi:snapshot refreshes it when a change is intended)', async () => {
    const committed = readFileSync(join(__dirname, 'openapi.snapshot.json'), 'utf8');
    const built = documentText(await servedDocument());
    // Compared line by line first, so a failure names the lines that differ.
    expect(built.split('\n')).toEqual(committed.split('\n'));
    expect(built === committed).toBe(true);
    // Building the document imports every route and schema: 4 s on a quiet machine, more when it is shared.
  }, 60_000);
});
