// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { z } from 'zod';
import { setting } from '@ris/config';
import { runService } from '@ris/service-runtime';
import { SignalEvidence } from './evidence/signal-evidence';
import { fraudService } from './fraud.rpc';
import { FraudScorer } from './scoring/fraud-scorer';
import { disposableDomainMatcher } from './scoring/rules/disposable-domains';
import { FRAUD_RULES } from './scoring/rules/rule-set';
import { SignalHistory } from './scoring/signal-history';
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
  },
  build: ({ db, config }) => {
    const signals = new SignalRepository(db);
    const history = new SignalHistory(signals, {
      velocityWindowMinutes: config.FRAUD_VELOCITY_WINDOW_MINUTES,
      fastConversionSeconds: config.FRAUD_FAST_CONVERSION_SECONDS,
      refereeLookbackDays: config.FRAUD_REFEREE_LOOKBACK_DAYS,
    });
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
    return { services: [fraudService(scorer, evidence)] };
  },
});
