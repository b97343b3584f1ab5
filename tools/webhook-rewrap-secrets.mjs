// Moves every webhook signing secret under the current master key of
// SECRETS_KEYS (apps/webhook-service/src/signing/secrets-rewrap.ts), and encrypts the
// plain secrets of a database from before encryption at rest.
//
//   SECRETS_KEYS=… MONGODB_URL=… MONGODB_DB=ris_webhook node tools/webhook-rewrap-secrets.mjs [--app <appId>] [--check]
//
// Safe while the service runs. When it reports no secret left under other
// keys, the old keys can leave SECRETS_KEYS. --check only counts.
import { runServiceCommand } from './run-service-command.mjs';

await runServiceCommand('apps/webhook-service/src/signing/secrets-rewrap-command.ts', 'webhook-rewrap-secrets');
