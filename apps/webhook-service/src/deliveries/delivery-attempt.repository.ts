import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { deliveryAttemptModel, type DeliveryAttemptDoc } from './delivery-attempt.model';

/** The attempt log of the deliveries (delivery-attempt.model.ts names the index of each query). */
export class DeliveryAttemptRepository extends Repository<DeliveryAttemptDoc> {
  constructor(db: Connection) {
    super(deliveryAttemptModel(db));
  }

  /** Attempts of any apps (each carries its own appId), in one insert. */
  async log(attempts: DeliveryAttemptDoc[]): Promise<void> {
    await this.collection.insertMany(attempts, { ordered: false });
  }

  /** A delivery's attempts in order. */
  ofDelivery(appId: string, deliveryId: string): Promise<DeliveryAttemptDoc[]> {
    return this.collection.find(appId, { deliveryId }, { sort: { number: 1 } });
  }

  async removeForEndpoint(appId: string, endpointId: string): Promise<void> {
    await this.collection.deleteMany(appId, { endpointId });
  }

  /** Retention, across apps: attempts older than the cut-off. */
  async removeStartedBefore(cutoff: Date): Promise<void> {
    await this.acrossApps.deleteMany({ startedAt: { $lt: cutoff } }).exec();
  }
}
