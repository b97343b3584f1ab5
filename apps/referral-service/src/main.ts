// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { instrumentRedis, reportDependencies } from '@ris/telemetry';
import { setting } from '@ris/config';
import { FraudService, RewardService } from '@ris/contracts';
import { createServiceClient } from '@ris/rpc';
import { EventConsumer } from '@ris/events';
import { EnvelopeCipher, keyringSetting } from '@ris/secrets';
import { runService } from '@ris/service-runtime';
import { INCENTIVE_ACTIVITY, incentiveActivityHandler } from './participants/incentive-activity';
import { referralModules } from './referral-modules';
import { referralService } from './referral.rpc';
import { CodeKeyCache } from './referrals/code-key-cache';

void runService({
  name: 'referral-service',
  defaultPort: 50051,
  settings: {
    FRAUD_SERVICE_URL: setting.url(['http', 'https'], 'http://127.0.0.1:50052'),
    REWARD_SERVICE_URL: setting.url(['http', 'https'], 'http://127.0.0.1:50053'),
    // A slow fraud service must not hold conversions: past this the check is deferred.
    FRAUD_TIMEOUT_MS: setting.positiveInt(2000),
    // How often the recovery pass looks for deferred scores, unsettled rewards and interrupted reviews.
    RECOVERY_INTERVAL_MS: setting.positiveInt(15_000),
    // How long a reversal may stay PENDING before the recovery pass takes it for one whose process died.
    REVERSAL_ABANDONED_AFTER_MS: setting.positiveInt(30_000),
    // Code keys shared by the replicas (a cache: the service works without it).
    REDIS_URL: setting.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z.string().default('ris:'),
    // Master keys of the Stripe integrations' webhook secrets, stored sealed (libs/secrets).
    SECRETS_KEYS: keyringSetting(),
  },
  build: ({ db, bus, outbox, config, logger }) => {
    // A cache must not slow clicks down when Redis does: no queueing, a short timeout.
    // The lookups of one turn of the event loop go out as one pipeline.
    const redis = instrumentRedis(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 250, enableAutoPipelining: true }));
    reportDependencies([{ name: 'redis', check: () => redis.status === 'ready' }]);
    redis.on('error', (err) => logger.debug({ err: err.message }, 'redis error'));
    const modules = referralModules(db, outbox, {
      fraud: createServiceClient(FraudService, config.FRAUD_SERVICE_URL, { timeoutMs: config.FRAUD_TIMEOUT_MS }),
      rewards: createServiceClient(RewardService, config.REWARD_SERVICE_URL),
      logger,
      codeKeyCache: new CodeKeyCache(redis, config.REDIS_KEY_PREFIX, logger),
      recoveryIntervalMs: config.RECOVERY_INTERVAL_MS,
      reversalAbandonedAfterMs: config.REVERSAL_ABANDONED_AFTER_MS,
      secrets: new EnvelopeCipher(config.SECRETS_KEYS),
    });
    return {
      services: [referralService(modules, logger)],
      // The incentive engine's activity, for the participants directory.
      consumers: [
        new EventConsumer({
          bus,
          durable: 'referral-incentive-activity',
          types: [INCENTIVE_ACTIVITY],
          connection: db,
          logger,
          handle: incentiveActivityHandler(modules.participants),
          idempotentHandler: true,
          concurrency: 4,
        }),
      ],
      start: () => modules.recovery.start(),
      stop: async () => {
        await modules.recovery.stop();
        redis.disconnect();
      },
    };
  },
});
