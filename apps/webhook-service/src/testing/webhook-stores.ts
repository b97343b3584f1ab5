import { Outbox } from '@ris/events';
import { testDatabase } from '@ris/testing';
import { DeliveryAttemptRepository } from '../deliveries/delivery-attempt.repository';
import { DeliveryRepository } from '../deliveries/delivery.repository';
import { EndpointRepository } from '../endpoints/endpoint.repository';

export interface WebhookStores {
  db: Awaited<ReturnType<typeof testDatabase>>;
  /** Events stored and not yet published: no relay runs here. */
  outbox: Outbox;
  endpoints: EndpointRepository;
  deliveries: DeliveryRepository;
  attempts: DeliveryAttemptRepository;
}

/** The webhook service's repositories as main.ts makes them, on a database of its own on the real server, their indexes built. */
export async function webhookStores(prefix: string): Promise<WebhookStores> {
  const db = await testDatabase(prefix);
  const outbox = new Outbox(db);
  const stores = { endpoints: new EndpointRepository(db, outbox), deliveries: new DeliveryRepository(db), attempts: new DeliveryAttemptRepository(db) };
  await Promise.all(Object.values(stores).map((repository) => repository.ensureIndexes()));
  return { db, outbox, ...stores };
}
