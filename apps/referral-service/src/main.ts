import { ReferralService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';
import { Campaigns } from './campaigns';
import { referralRpc } from './referral.rpc';
import { Referrals } from './referrals';

void runService({
  name: 'referral-service',
  defaultPort: 50051,
  build: ({ db, outbox }) => {
    const campaigns = new Campaigns(db);
    const referrals = new Referrals(db, campaigns, outbox);
    return { services: [rpcService(ReferralService, referralRpc(campaigns, referrals))] };
  },
});
