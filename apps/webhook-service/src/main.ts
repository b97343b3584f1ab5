import { WebhookService } from '@ris/contracts';
import { rpcService } from '@ris/rpc';
import { runService } from '@ris/service-runtime';

// Serves health and its (still empty) Connect service; its RPCs arrive
// with the issue that builds this service.
void runService({
  name: 'webhook-service',
  defaultPort: 50056,
  build: () => ({ services: [rpcService(WebhookService, {})] }),
});
