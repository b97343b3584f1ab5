import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { FraudService } from '@ris/contracts';
import { testDatabase } from '@ris/testing';
import { SignalEvidence } from '../evidence/signal-evidence';
import { fraudService } from '../fraud.rpc';
import { FraudScorer } from '../scoring/fraud-scorer';
import { ruleSettings } from '../scoring/rules/facts-fixture';
import { FRAUD_RULES } from '../scoring/rules/rule-set';
import { SignalHistory } from '../scoring/signal-history';
import { SignalRepository } from '../signals/signal.repository';

/**
 * The fraud service as the referral service calls it (an in-process Connect
 * transport, the service's own interceptors included), wired as main.ts
 * wires it, on a database of its own on the real server.
 */
export async function fraudOnTestDatabase(prefix: string): Promise<{ db: Awaited<ReturnType<typeof testDatabase>>; fraud: Client<typeof FraudService> }> {
  const db = await testDatabase(prefix);
  const signals = new SignalRepository(db);
  await signals.ensureIndexes();
  const settings = { velocityWindowMinutes: 60, fastConversionSeconds: 10, refereeLookbackDays: 30 };
  const service = fraudService(new FraudScorer(new SignalHistory(signals, settings), FRAUD_RULES, ruleSettings), new SignalEvidence(signals, settings));
  return { db, fraud: createClient(FraudService, createRouterTransport((router) => service.register(router))) };
}
