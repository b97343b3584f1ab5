// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '@ris/config';
import { createLogger } from '@ris/logging';
import { connectMongo, isMongoConnected } from '@ris/mongo';
import { flushTraces, instrumentRedis, reportDependencies, startMetricsServer } from '@ris/telemetry';
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
  // First: the instruments of what follows are installed only when metrics are on.
  const metrics = await startMetricsServer({ host: config.HOST, port: config.METRICS_PORT, logger });
  const db = await connectMongo(config.MONGODB_URL, config.MONGODB_DB, logger);
  // Fail fast instead of queueing: the rate limiter lets requests through when Redis is away.
  const redis = instrumentRedis(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 }));
  redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  reportDependencies([
    { name: 'mongodb', check: () => isMongoConnected(db) },
    { name: 'redis', check: () => redis.status === 'ready' },
  ]);
  const clients = createServiceClients(config);
  const app = createGatewayApp({ config, logger, db, redis, clients });
  await Promise.all(Object.values(db.models).map((model) => model.init()));

  let stopping = false;
  // Once stopping, every answer closes its connection: a keep-alive client
  // sends its next request elsewhere instead of to a closing server.
  const server = createServer((req, res) => {
    if (stopping) res.shouldKeepAlive = false;
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(config.PORT, config.HOST, () => {
    logger.info({ port: (server.address() as AddressInfo).port }, 'gateway listening');
  });

  // SIGTERM: stop accepting connections, finish every request in flight
  // (their calls to the services included), then exit; within SHUTDOWN_GRACE_MS.
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    logger.info({ signal, graceMs: config.SHUTDOWN_GRACE_MS }, 'stopping');
    setTimeout(() => {
      logger.error({ graceMs: config.SHUTDOWN_GRACE_MS }, 'stop took longer than SHUTDOWN_GRACE_MS; exiting with requests unfinished');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS).unref();
    // Idle keep-alive connections now, and each as its last answer is sent.
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    server.close(async () => {
      clearInterval(idle);
      redis.disconnect();
      await db.close();
      await metrics?.close();
      await flushTraces().catch(() => undefined);
      logger.info({ durationMs: Date.now() - started }, 'stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
