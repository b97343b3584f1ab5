import type { Connection } from 'mongoose';
import type { z } from 'zod';
import { ConfigError, loadConfig, serviceSettings } from '@ris/config';
import { EventBus, Outbox, OutboxRelay, watchOutbox, type EventConsumer } from '@ris/events';
import { createLogger, type Logger } from '@ris/logging';
import { connectMongo, dropRetiredIndexes, isMongoConnected } from '@ris/mongo';
import { startRpcServer, type ReadinessCheck, type RpcService } from '@ris/rpc';
import { reportDependencies, startMetricsServer } from '@ris/telemetry';
import { gracefulStop } from './graceful-stop';
import { ProcessLiveness } from './process-liveness';

type BaseSettings = ReturnType<typeof serviceSettings>;

export interface ServiceDeps<C> {
  config: C;
  logger: Logger;
  db: Connection;
  bus: EventBus;
  outbox: Outbox;
  /** Which processes of this service are alive: work a dead one held is taken over at once. */
  liveness: ProcessLiveness;
}

export interface ServiceParts {
  services: RpcService[];
  consumers?: EventConsumer[];
  readiness?: ReadinessCheck[];
  /** Background work started after the server listens (recovery passes, timers). */
  start?: () => void | Promise<void>;
  stop?: () => Promise<void>;
}

export interface ServiceDefinition<S extends z.ZodRawShape> {
  /** e.g. referral-service; also names its database (ris_referral). */
  name: string;
  defaultPort: number;
  settings?: S;
  build: (deps: ServiceDeps<z.infer<z.ZodObject<BaseSettings & S>>>) => ServiceParts | Promise<ServiceParts>;
}

/**
 * The life of a backend service process: validated settings, its own
 * database, the event bus with outbox relay, the RPC server with health,
 * and a graceful stop on SIGTERM/SIGINT (what Kubernetes sends).
 */
export async function runService<S extends z.ZodRawShape>(definition: ServiceDefinition<S>): Promise<void> {
  const shortName = definition.name.replace(/-service$/, '');
  let config: z.infer<z.ZodObject<BaseSettings & S>>;
  try {
    config = loadConfig({ ...serviceSettings(shortName, definition.defaultPort), ...(definition.settings ?? {}) } as BaseSettings & S);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const base = config as unknown as z.infer<z.ZodObject<BaseSettings>>;
  const logger = createLogger(definition.name, base.LOG_LEVEL);
  process.on('unhandledRejection', (err) => logger.error({ err }, 'unhandled rejection'));
  // First: the instruments of what follows are installed only when metrics are on.
  const metrics = await startMetricsServer({ host: base.HOST, port: base.METRICS_PORT, logger });

  const db = await connectMongo(base.MONGODB_URL, base.MONGODB_DB, logger);
  const bus = new EventBus({
    url: base.NATS_URL,
    stream: base.EVENTS_STREAM,
    subjectPrefix: base.EVENTS_SUBJECT_PREFIX,
    name: definition.name,
    logger,
  });
  const outbox = new Outbox(db);
  watchOutbox(outbox);
  const relay = new OutboxRelay(outbox, bus, logger);

  const liveness = new ProcessLiveness(db);
  await liveness.start();

  const parts = await definition.build({ config, logger, db, bus, outbox, liveness });
  // Declared indexes built, then those an earlier release built and this one retired dropped (their replacements exist by then).
  await Promise.all(
    Object.values(db.models).map(async (model) => {
      await model.init();
      const dropped = await dropRetiredIndexes(model);
      if (dropped.length > 0) logger.info({ collection: model.collection.name, dropped }, 'retired indexes dropped');
    }),
  );

  const readiness: ReadinessCheck[] = [
    { name: 'mongodb', check: () => isMongoConnected(db) },
    { name: 'nats', check: () => bus.isConnected() },
    ...(parts.readiness ?? []),
  ];
  reportDependencies(readiness);
  const server = await startRpcServer({ host: base.HOST, port: base.PORT, logger, services: parts.services, readiness });
  relay.start();
  for (const consumer of parts.consumers ?? []) consumer.start();
  await parts.start?.();
  logger.info({ port: server.port }, `${definition.name} ready`);

  // SIGTERM: stop taking calls and let those in flight finish, then the
  // consumers' messages and the background work (webhook attempts), then
  // publish what was written, all within SHUTDOWN_GRACE_MS.
  const stop = gracefulStop(logger, base.SHUTDOWN_GRACE_MS, async (deadline) => {
    await server.close(deadline.left());
    await Promise.all((parts.consumers ?? []).map((c) => c.stop()));
    await parts.stop?.();
    await liveness.stop();
    await relay.stop();
    await bus.close();
    await db.close();
    await metrics?.close();
  });
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
