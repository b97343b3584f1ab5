// Prints the OpenAPI document the gateway serves, built with no backend, for
// tools/openapi-document.mjs: the dashboard's and the SDK's client
// generation (`npm run dashboard:api`, `npm run sdk:api`) and the committed
// snapshot (`npm run openapi:snapshot`).
import { documentText, servedDocument } from './served-document';

servedDocument()
  .then((document) => process.stdout.write(documentText(document)))
  .catch((err: unknown) => {
    process.stderr.write(`print-document: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
