import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { loadConfig } from '@ris/config';
import { createLogger } from '@ris/logging';
import { newKeyringEntry } from '@ris/secrets';
import { gatewaySettings } from '../gateway-config';
import { createGatewayApp } from '../gateway-app';
import { createServiceClients } from '../service-clients';

/**
 * The OpenAPI document exactly as the gateway serves it at
 * /api/v1/openapi.json, built with no backend (nothing connects until a
 * request needs it): what the committed snapshot, the contract checks and
 * the dashboard's client generation read.
 */
export async function servedDocument(): Promise<unknown> {
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
    return await res.json();
  } finally {
    server.close();
    redis.disconnect();
    await db.close();
  }
}

/** The document as committed in openapi.snapshot.json: two-space JSON and a final newline. */
export const documentText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
