import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { saleLinkModel, type SaleLinkDoc } from './sale-link.model';

/** The sale a Stripe object belongs to. */
export type SaleTarget = Pick<SaleLinkDoc, 'conversionId' | 'purchaseId'>;

const linkId = (appId: string, key: string) => `${appId}:${key}`;

/** The sale links (sale-link.model.ts): every question asked of them and every write, by name. */
export class SaleLinkRepository extends Repository<SaleLinkDoc> {
  constructor(db: Connection) {
    super(saleLinkModel(db));
  }

  /** Records that `key` belongs to the sale; the first link of a key stays (a retry, or a customer who checks out again). */
  async link(appId: string, key: string, target: SaleTarget, event: { id: string; createdAt: Date }): Promise<SaleLinkDoc> {
    const { doc } = await this.insertOrGet(appId, {
      _id: linkId(appId, key),
      key,
      conversionId: target.conversionId,
      purchaseId: target.purchaseId,
      stripeEventId: event.id,
      stripeEventCreatedAt: event.createdAt,
      createdAt: new Date(),
    });
    return doc;
  }

  /** The sale of the first of `keys` that has one (in the order given), or null. */
  async firstOf(appId: string, keys: readonly string[]): Promise<SaleLinkDoc | null> {
    const found = await Promise.all(keys.map((key) => this.findById(appId, linkId(appId, key))));
    return found.find((link) => link !== null) ?? null;
  }
}
