// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { instrumentRedis, reportDependencies } from '@ris/telemetry';
import { setting } from '@ris/config';
import { EventConsumer, type DomainEvent } from '@ris/events';
import { runService } from '@ris/service-runtime';
import { REFERRAL_TRIGGERS, referralActionHandler } from './events/referral-actions';
import { incentiveModules } from './incentive-modules';
import { incentiveService } from './incentive.rpc';
import { CONVERSION_REVERSED, conversionReversedHandler } from './reversals/conversion-reversed';

void runService({
  name: 'incentive-service',
  defaultPort: 50054,
  settings: {
    REDIS_URL: setting.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z.string().default('ris:'),
    LEADERBOARD_SNAPSHOT_SIZE: setting.positiveInt(100),
    // How often the streak pass freezes or ends streaks whose period ran out (tests make it short).
    STREAK_PASS_INTERVAL_MS: setting.positiveInt(60_000),
    // How often the dues pass releases pending credits and expires lapsed coins (tests make it short).
    DUES_PASS_INTERVAL_MS: setting.positiveInt(60_000),
  },
  build: ({ config, db, bus, outbox, logger, liveness }) => {
    // Fail fast instead of queueing: events must succeed while Redis is down.
    const redis = instrumentRedis(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2000 }));
    reportDependencies([{ name: 'redis', check: () => redis.status === 'ready' }]);
    redis.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
    const modules = incentiveModules({
      db,
      redis,
      redisKeyPrefix: config.REDIS_KEY_PREFIX,
      outbox,
      logger,
      snapshotSize: config.LEADERBOARD_SNAPSHOT_SIZE,
      liveness,
    });
    // One durable consumer per referral event type: NATS 2.9 filters a
    // consumer on one subject, so each receives only its type (one consumer
    // of all four would receive every domain event there is, this service's
    // own included).
    const consumerOf = (type: string, handle: (event: DomainEvent) => Promise<void>) =>
      new EventConsumer({
        bus,
        durable: `incentive-${type.replace(/\./g, '-')}`,
        types: [type],
        connection: db,
        logger,
        handle,
        // Each action fired is recorded under an idempotency key made of the event id, each reversal under its reward's key.
        idempotentHandler: true,
      });
    const referralActions = referralActionHandler(modules.actions, modules.recorder, modules.reversals, logger);
    return {
      services: [incentiveService(modules)],
      consumers: [
        ...Object.keys(REFERRAL_TRIGGERS).map((type) => consumerOf(type, referralActions)),
        // A conversion reversed in full takes back what its conversion.created credited (product decisions §7.16).
        consumerOf(CONVERSION_REVERSED, conversionReversedHandler(modules.reversals, logger)),
      ],
      // Background passes: Redis catch-up, period snapshots, unfinished events, streaks whose period ran out.
      start: () => {
        modules.leaderboard.start();
        modules.snapshots.start();
        modules.recorder.startRecovery();
        modules.streaks.startPass(config.STREAK_PASS_INTERVAL_MS);
        modules.dues.start(config.DUES_PASS_INTERVAL_MS);
      },
      stop: async () => {
        await Promise.all([modules.recorder.stop(), modules.streaks.stop(), modules.dues.stop(), modules.leaderboard.stop(), modules.snapshots.stop(), modules.refreshRuns.stop()]);
        // The counts of the last writes (series/incentive-series.ts).
        await modules.series.flushed();
        redis.disconnect();
      },
    };
  },
});
