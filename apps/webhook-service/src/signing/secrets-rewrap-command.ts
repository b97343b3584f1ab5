// The rewrap command (tools/webhook-rewrap-secrets.mjs runs it): moves every
// webhook signing secret under the current master key of SECRETS_KEYS, and
// encrypts the plain secrets of a database from before encryption at rest.
//
//   SECRETS_KEYS=… MONGODB_URL=… MONGODB_DB=ris_webhook node tools/webhook-rewrap-secrets.mjs [--app <appId>] [--check]
//
// Reads its settings like the service. --check only counts. Exits 1 while
// any secret is not under the current key (then an old key cannot go yet),
// 2 on a bad setting.
import { ConfigError, loadConfig } from '@ris/config';
import { Outbox } from '@ris/events';
import { EnvelopeCipher, keyringSetting, type Keyring } from '@ris/secrets';
import { maintenanceArgs, withServiceDatabase } from '@ris/service-runtime';
import { EndpointRepository } from '../endpoints/endpoint.repository';
import { rewrapSecrets, secretsNotCurrent } from './secrets-rewrap';

function keyring(): Keyring {
  try {
    return loadConfig({ SECRETS_KEYS: keyringSetting() }).SECRETS_KEYS;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`webhook-rewrap-secrets: ${err.message}\n`);
    process.exit(2);
  }
}

async function main(): Promise<void> {
  const { appId, fix } = maintenanceArgs('webhook-rewrap-secrets', process.argv.slice(2), 'unless-check');
  const cipher = new EnvelopeCipher(keyring());
  await withServiceDatabase('webhook-rewrap', 'ris_webhook', async (db) => {
    // The outbox is the repository's: this command stores no events.
    const report = await rewrapSecrets(new EndpointRepository(db, new Outbox(db)), cipher, { appId, fix });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const left = secretsNotCurrent(report);
    process.stderr.write(
      `checked ${report.endpoints} endpoints: ${report.notCurrent} not under key ${report.currentKeyId}` +
        `${fix ? ` (${report.moved} moved, ${report.failed.length} failed)` : ''}; ` +
        `${left} secrets left under other keys or in plain text${left === 0 ? ': keys other than the current one can be removed' : ''}\n`,
    );
    process.exitCode = left > 0 || report.failed.length > 0 ? 1 : 0;
  });
}

void main();
