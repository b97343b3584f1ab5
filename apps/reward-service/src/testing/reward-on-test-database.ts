import { createClient, createRouterTransport, type Client } from '@connectrpc/connect';
import { RewardService } from '@ris/contracts';
import { Outbox } from '@ris/events';
import { testDatabase } from '@ris/testing';
import { rewardService } from '../reward.rpc';
import { rewardStore, type RewardStore } from '../rewards/reward-store';

export interface RewardOnTestDatabase {
  db: Awaited<ReturnType<typeof testDatabase>>;
  /** Events stored and not yet published: no relay runs here. */
  outbox: Outbox;
  store: RewardStore;
  /** The service as the gateway and the referral service call it (an in-process transport, its own interceptors included). */
  rewards: Client<typeof RewardService>;
}

/** The reward service as main.ts wires it, on a database of its own on the real server, its indexes built. */
export async function rewardOnTestDatabase(prefix: string): Promise<RewardOnTestDatabase> {
  const db = await testDatabase(prefix);
  const outbox = new Outbox(db);
  const store = rewardStore(db, outbox);
  await Promise.all(Object.values(store).map((repository) => repository.ensureIndexes()));
  const service = rewardService(store);
  return { db, outbox, store, rewards: createClient(RewardService, createRouterTransport((router) => service.register(router))) };
}
