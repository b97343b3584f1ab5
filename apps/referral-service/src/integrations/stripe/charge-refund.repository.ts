import type { Connection } from 'mongoose';
import { Repository } from '@ris/mongo';
import { chargeRefundModel, type ChargeRefundDoc, type ChargeRefundEntry } from './charge-refund.model';

const refundId = (appId: string, chargeId: string) => `${appId}:${chargeId}`;

/** The refunds applied per charge (charge-refund.model.ts): every question asked of them and every write, by name. */
export class ChargeRefundRepository extends Repository<ChargeRefundDoc> {
  constructor(db: Connection) {
    super(chargeRefundModel(db));
  }

  ofCharge(appId: string, chargeId: string): Promise<ChargeRefundDoc | null> {
    return this.findById(appId, refundId(appId, chargeId));
  }

  /**
   * Claims `entry` as what the charge's refunded total `refundedMinor` adds
   * to `seenMinor`, the total the caller read: false when the charge moved
   * meanwhile (another event claimed first), and the caller reads again.
   * On FerretDB, whose conditional update is a read and a write, the
   * caller runs the claims of one charge one at a time (SerialByKey).
   */
  async claim(appId: string, chargeId: string, seenMinor: number | null, refundedMinor: number, entry: ChargeRefundEntry): Promise<boolean> {
    if (seenMinor === null) {
      const created = await this.insertUnlessTaken(appId, { _id: refundId(appId, chargeId), chargeId, refundedMinor, entries: [entry] });
      return created !== null;
    }
    return this.collection.compareAndSet(
      appId,
      { _id: refundId(appId, chargeId), refundedMinor: seenMinor, 'entries.stripeEventId': { $ne: entry.stripeEventId } },
      { $set: { refundedMinor }, $push: { entries: entry } },
    );
  }
}
