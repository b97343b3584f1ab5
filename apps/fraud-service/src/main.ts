// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { setting } from '@ris/config';
import { runService } from '@ris/service-runtime';
import { instrumentRedis, reportDependencies } from '@ris/telemetry';
import { SignalEvidence } from './evidence/signal-evidence';
import { fraudService } from './fraud.rpc';
import { FraudScorer } from './scoring/fraud-scorer';
import { disposableDomainMatcher } from './scoring/rules/disposable-domains';
import { FRAUD_RULES } from './scoring/rules/rule-set';
import { SignalHistory } from './scoring/signal-history';
import { SignalWindows } from './scoring/signal-windows';
import { SignalRepository } from './signals/signal.repository';

void runService({
  name: 'fraud-service',
  defaultPort: 50052,
  settings: {
    FRAUD_VELOCITY_WINDOW_MINUTES: setting.positiveInt(60),
    FRAUD_IP_VELOCITY_LIMIT: setting.positiveInt(5),
    FRAUD_DEVICE_VELOCITY_LIMIT: setting.positiveInt(3),
    FRAUD_REFERRER_VELOCITY_LIMIT: setting.positiveInt(10),
    FRAUD_FAST_CONVERSION_SECONDS: setting.positiveInt(10),
    FRAUD_REFEREE_LOOKBACK_DAYS: setting.positiveInt(30),
    // Comma-separated domains added to the shipped disposable-email list.
    FRAUD_EXTRA_DISPOSABLE_DOMAINS: z.string().default(''),
    // The velocity windows, shared by the replicas (SignalWindows).
    REDIS_URL: setting.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z.string().default('ris:'),
  },
  build: ({ db, config, logger }) => {
    // A score must not wait for Redis: no queueing, a short timeout (the referral service defers the check).
    const redis = instrumentRedis(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 }));
    reportDependencies([{ name: 'redis', check: () => redis.status === 'ready' }]);
    redis.on('error', (err) => logger.debug({ err: err.message }, 'redis error'));
    const signals = new SignalRepository(db);
    const windowSettings = {
      velocityWindowMinutes: config.FRAUD_VELOCITY_WINDOW_MINUTES,
      fastConversionSeconds: config.FRAUD_FAST_CONVERSION_SECONDS,
      refereeLookbackDays: config.FRAUD_REFEREE_LOOKBACK_DAYS,
    };
    const history = new SignalHistory(signals, new SignalWindows(redis, config.REDIS_KEY_PREFIX, windowSettings));
    const scorer = new FraudScorer(history, FRAUD_RULES, {
      ipVelocityLimit: config.FRAUD_IP_VELOCITY_LIMIT,
      deviceVelocityLimit: config.FRAUD_DEVICE_VELOCITY_LIMIT,
      referrerVelocityLimit: config.FRAUD_REFERRER_VELOCITY_LIMIT,
      fastConversionSeconds: config.FRAUD_FAST_CONVERSION_SECONDS,
      isDisposableDomain: disposableDomainMatcher(config.FRAUD_EXTRA_DISPOSABLE_DOMAINS.split(',')),
    });
    const evidence = new SignalEvidence(signals, {
      velocityWindowMinutes: config.FRAUD_VELOCITY_WINDOW_MINUTES,
      refereeLookbackDays: config.FRAUD_REFEREE_LOOKBACK_DAYS,
    });
    return { services: [fraudService(scorer, evidence)], stop: async () => redis.disconnect() };
  },
});
