// Prints the OpenAPI document the gateway serves, built with no backend
// (nothing connects until a request needs it), for the dashboard's client
// generation (`npm run dashboard:api`, tools/dashboard-api.mjs).
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { loadConfig } from '@ris/config';
import { createLogger } from '@ris/logging';
import { newKeyringEntry } from '@ris/secrets';
import { gatewaySettings } from '../gateway-config';
import { createGatewayApp } from '../gateway-app';
import { createServiceClients } from '../service-clients';

async function printDocument(): Promise<void> {
  // Settings only so that the app can be built: the document depends on none of them.
  const config = loadConfig(gatewaySettings, { ADMIN_TOKEN: 'x'.repeat(16), SECRETS_KEYS: newKeyringEntry('k1'), LOG_LEVEL: 'silent' });
  const redis = new Redis({ lazyConnect: true });
  const db = mongoose.createConnection();
  const app = createGatewayApp({ config, logger: createLogger('gateway', 'silent'), db, redis, clients: createServiceClients(config) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/openapi.json`);
    if (!res.ok) throw new Error(`the gateway answered ${res.status} for its OpenAPI document`);
    process.stdout.write(`${JSON.stringify(await res.json(), null, 2)}\n`);
  } finally {
    server.close();
    redis.disconnect();
    await db.close();
  }
}

printDocument().catch((err: unknown) => {
  process.stderr.write(`print-document: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
