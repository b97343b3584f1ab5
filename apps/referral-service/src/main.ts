// First: tracing, when configured, starts before what it instruments loads.
import '@ris/telemetry/start-tracing';
import { Redis } from 'ioredis';
import { z } from 'zod';
import { instrumentRedis, reportDependencies } from '@ris/telemetry';
import { setting } from '@ris/config';
import { FraudService, ReferralService, RewardService } from '@ris/contracts';
import { createServiceClient, rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { Campaigns } from './campaigns/campaigns';
import { CodeKeyCache } from './referrals/code-key-cache';
import { ConversionRewards } from './conversions/conversion-rewards';
import { FraudCheck } from './fraud-check/fraud-check';
import { FlagEvidence } from './flags/fraud-flag-evidence';
import { FraudFlags } from './flags/fraud-flags';
import { ConversionRecorder } from './conversions/record-conversion';
import { RecoveryPass } from './recovery/recovery-pass';
import { ClickRecorder } from './clicks/click-recorder';
import { RefereeFunnel } from './conversions/referee-funnel';
import { referralRpc } from './referral.rpc';
import { ReferralStore } from './referral-store';
import { ReferralTree } from './referrals/referral-tree';
import { Referrals } from './referrals/referrals';

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
    // Code keys shared by the replicas (a cache: the service works without it).
    REDIS_URL: setting.url(['redis', 'rediss'], 'redis://127.0.0.1:6379'),
    REDIS_KEY_PREFIX: z.string().default('ris:'),
  },
  build: ({ db, outbox, config, logger }) => {
    // A cache must not slow clicks down when Redis does: no queueing, a short timeout.
    // The lookups of one turn of the event loop go out as one pipeline.
    const redis = instrumentRedis(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 250, enableAutoPipelining: true }));
    reportDependencies([{ name: 'redis', check: () => redis.status === 'ready' }]);
    redis.on('error', (err) => logger.debug({ err: err.message }, 'redis error'));
    const campaigns = new Campaigns(db);
    const store = new ReferralStore(db, campaigns, outbox, new CodeKeyCache(redis, config.REDIS_KEY_PREFIX, logger));
    const fraud = new FraudCheck(createServiceClient(FraudService, config.FRAUD_SERVICE_URL, { timeoutMs: config.FRAUD_TIMEOUT_MS }), logger);
    const conversionRewards = new ConversionRewards(store, createServiceClient(RewardService, config.REWARD_SERVICE_URL));
    const flags = new FraudFlags(store, conversionRewards);
    const tree = new ReferralTree(store);
    const funnel = new RefereeFunnel(store);
    const referrals = new Referrals(store, tree, funnel, fraud, flags, new ClickRecorder(store, funnel, fraud));
    const recorder = new ConversionRecorder(store, tree, fraud, flags, conversionRewards);
    const recovery = new RecoveryPass(store, { fraud, flags, conversionRewards, recorder, referrals }, logger, {
      intervalMs: config.RECOVERY_INTERVAL_MS,
    });
    return {
      services: [rpcService(ReferralService, referralRpc({ store, campaigns, referrals, recorder, flags, evidence: new FlagEvidence(store, fraud), logger }))],
      start: () => recovery.start(),
      stop: async () => {
        await recovery.stop();
        redis.disconnect();
      },
    };
  },
});
