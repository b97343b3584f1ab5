// Prints the OpenAPI document the gateway serves, built with no backend, for
// the dashboard's client generation (`npm run dashboard:api`,
// tools/dashboard-api.mjs) and the committed snapshot (`npm run
// openapi:snapshot`, tools/openapi-snapshot.mjs).
import { documentText, servedDocument } from './served-document';

servedDocument()
  .then((document) => process.stdout.write(documentText(document)))
  .catch((err: unknown) => {
    process.stderr.write(`print-document: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
