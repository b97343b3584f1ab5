import { IncentiveService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';

// Serves health and its (still empty) Connect service; its RPCs arrive
// with the issue that builds this service.
void runService({
  name: 'incentive-service',
  defaultPort: 50054,
  build: () => ({ services: [rpcService(IncentiveService, {})] }),
});
