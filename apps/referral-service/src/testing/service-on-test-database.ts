import { create } from '@bufbuild/protobuf';
import { createClient, createRouterTransport, type ServiceImpl } from '@connectrpc/connect';
import { FraudService, ReferralService, RewardSchema, RewardService, RewardStatus, type Reward } from '@ris/contracts';
import { Outbox } from '@ris/events';
import { createLogger } from '@ris/logging';
import { testDatabase } from '@ris/testing';
import { referralModules } from '../referral-modules';
import { referralService } from '../referral.rpc';

/**
 * The referral service's modules, wired as main.ts wires them, on a fresh
 * test database (real FerretDB or MongoDB), with the fraud and reward
 * services stood in for by in-memory Connect routers: their own behaviour
 * is tested in their services and end to end. By default the fraud service
 * flags nothing, and the reward service issues each reward once (held when
 * asked), approves and cancels them; `fraud` and `rewards` replace any of
 * their calls. `rpc` is a client of the service itself, through its own
 * interceptors (the tenant, domain errors), as the gateway calls it.
 */
export async function serviceOnTestDatabase(
  name: string,
  fraud: Partial<ServiceImpl<typeof FraudService>> = {},
  rewards: Partial<ServiceImpl<typeof RewardService>> = {},
) {
  const db = await testDatabase(name);
  const logger = createLogger('test', 'silent');
  const issued = new Map<string, Reward>();
  const moveAll = (conversionId: string, from: RewardStatus[], to: RewardStatus) => {
    const moved = [...issued.values()].filter((r) => r.conversionId === conversionId && from.includes(r.status));
    for (const reward of moved) reward.status = to;
    return { rewards: moved };
  };
  const rewardImpl: Partial<ServiceImpl<typeof RewardService>> = {
    createReward: async (req) => {
      const id = `rwd_${req.conversionId}_${req.side}_${req.level}`;
      const created = !issued.has(id);
      if (created) {
        const { userId, campaignId, referralId, conversionId, side, level, amount, currency, fulfillmentType } = req;
        const status = req.hold ? RewardStatus.PENDING : RewardStatus.APPROVED;
        issued.set(id, create(RewardSchema, { id, userId, campaignId, referralId, conversionId, side, level, amount, currency, fulfillmentType, status }));
      }
      return { created, capped: false, reward: issued.get(id) };
    },
    approveConversionRewards: async (req) => moveAll(req.conversionId, [RewardStatus.PENDING], RewardStatus.APPROVED),
    cancelConversionRewards: async (req) => moveAll(req.conversionId, [RewardStatus.PENDING, RewardStatus.APPROVED], RewardStatus.CANCELLED),
    listConversionRewards: async (req) => ({ rewards: [...issued.values()].filter((r) => r.conversionId === req.conversionId) }),
    ...rewards,
  };
  const fraudImpl: Partial<ServiceImpl<typeof FraudService>> = {
    scoreReferral: async () => ({ assessment: { riskScore: 0, reasons: [], flagged: false } }),
    scoreConversion: async () => ({ assessment: { riskScore: 0, reasons: [], flagged: false } }),
    recordClicks: async () => ({}),
    ...fraud,
  };

  const outbox = new Outbox(db);
  const modules = referralModules(db, outbox, {
    fraud: createClient(FraudService, createRouterTransport(({ service }) => service(FraudService, fraudImpl))),
    rewards: createClient(RewardService, createRouterTransport(({ service }) => service(RewardService, rewardImpl))),
    logger,
    recoveryIntervalMs: 60_000,
  });
  await Promise.all(Object.values(db.models).map((model) => model.init()));
  const service = referralService(modules, logger);
  const rpc = createClient(ReferralService, createRouterTransport((router) => service.register(router)));
  return { db, logger, outbox, issued, rpc, ...modules };
}

export const NO_CONTEXT = { ip: null, userAgent: null, deviceId: null, email: null };
