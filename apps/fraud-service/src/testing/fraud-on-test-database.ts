import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { Redis } from 'ioredis';
import { FraudService } from '@ris/contracts';
import { infraUrl, testDatabase, uniqueName } from '@ris/testing';
import { SignalEvidence } from '../evidence/signal-evidence';
import { fraudService } from '../fraud.rpc';
import { FraudScorer } from '../scoring/fraud-scorer';
import { ruleSettings } from '../scoring/rules/facts-fixture';
import { FRAUD_RULES } from '../scoring/rules/rule-set';
import { SignalHistory } from '../scoring/signal-history';
import { SignalWindows } from '../scoring/signal-windows';
import { SignalRepository } from '../signals/signal.repository';

const settings = { velocityWindowMinutes: 60, fastConversionSeconds: 10, refereeLookbackDays: 30 };

/**
 * Velocity windows on the real Redis, under keys of their own (a run's
 * counts start from zero); `close()` deletes those keys (the referee
 * lookback's live for 30 days) and disconnects.
 */
export async function windowsOnTestRedis(prefix: string): Promise<{ windows: SignalWindows; close: () => Promise<void> }> {
  const redis = new Redis(infraUrl('REDIS_URL'), { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
  await new Promise((resolve) => redis.once('ready', resolve));
  const keyPrefix = `${uniqueName(prefix)}:`;
  const close = async () => {
    const keys = await redis.keys(`${keyPrefix}*`);
    if (keys.length) await redis.unlink(...keys);
    redis.disconnect();
  };
  return { windows: new SignalWindows(redis, keyPrefix, settings), close };
}

/**
 * The fraud service as the referral service calls it (an in-process Connect
 * transport, the service's own interceptors included), wired as main.ts
 * wires it, on a database of its own on the real server and the real
 * Redis. `stop()` drops the database, deletes its Redis keys and disconnects.
 */
export async function fraudOnTestDatabase(prefix: string): Promise<{ db: Awaited<ReturnType<typeof testDatabase>>; fraud: Client<typeof FraudService>; stop: () => Promise<void> }> {
  const db = await testDatabase(prefix);
  const signals = new SignalRepository(db);
  await signals.ensureIndexes();
  const { windows, close } = await windowsOnTestRedis(prefix);
  const service = fraudService(new FraudScorer(new SignalHistory(signals, windows), FRAUD_RULES, ruleSettings), new SignalEvidence(signals, settings));
  return {
    db,
    fraud: createClient(FraudService, createRouterTransport((router) => service.register(router))),
    stop: async () => {
      await close();
      await db.drop();
    },
  };
}
