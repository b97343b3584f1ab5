import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '@ris/config';
import { createLogger } from '@ris/logging';
import { connectMongo } from '@ris/mongo';
import { gatewaySettings } from './gateway-config';
import { createGatewayApp } from './gateway-app';
import { createServiceClients } from './service-clients';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(gatewaySettings);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`gateway: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const db = await connectMongo(config.MONGODB_URL, config.MONGODB_DB, logger);
  // Fail fast instead of queueing: the rate limiter lets requests through when Redis is away.
  const redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const clients = createServiceClients(config);
  const app = createGatewayApp({ config, logger, db, redis, clients });
  await Promise.all(Object.values(db.models).map((model) => model.init()));

  const server = app.listen(config.PORT, config.HOST, () => {
    logger.info({ port: (server.address() as AddressInfo).port }, 'gateway listening');
  });
  server.keepAliveTimeout = 65_000;

  const stop = (signal: string) => {
    logger.info({ signal }, 'stopping');
    setTimeout(() => process.exit(1), 10_000).unref();
    server.close(async () => {
      redis.disconnect();
      await db.close();
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
