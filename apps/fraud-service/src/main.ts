// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { z } from 'zod';
import { setting } from '@ris/config';
import { FraudService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { FraudScorer } from './fraud-scorer';
import { fraudRpc } from './fraud.rpc';
import { disposableDomainMatcher } from './rules/disposable-domains';
import { FRAUD_RULES } from './rules/rule-set';
import { SignalEvidence } from './signal-evidence';
import { SignalHistory } from './signal-history';

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
    const history = new SignalHistory(db, {
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
    const evidence = new SignalEvidence(db, {
      velocityWindowMinutes: config.FRAUD_VELOCITY_WINDOW_MINUTES,
      refereeLookbackDays: config.FRAUD_REFEREE_LOOKBACK_DAYS,
    });
    return { services: [rpcService(FraudService, fraudRpc(scorer, evidence))] };
  },
});
