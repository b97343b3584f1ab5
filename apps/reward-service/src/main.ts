import { RewardService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { rewardRpc } from './reward.rpc';
import { RewardStore } from './reward-store';

void runService({
  name: 'reward-service',
  defaultPort: 50053,
  build: ({ db, outbox }) => ({ services: [rpcService(RewardService, rewardRpc(new RewardStore(db, outbox)))] }),
});
