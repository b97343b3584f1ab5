import { notFound } from '@ris/domain-errors';
import type { Page, PageQuery } from '@ris/mongo';
import type { ConversionRepository } from '../conversions/conversion.repository';
import type { PurchaseDoc } from './purchase.model';
import type { PurchaseRepository } from './purchase.repository';

/** GET /conversions/{conversionId}/purchases: a conversion's purchases, newest payment first. */
export class PurchaseList {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly conversions: ConversionRepository,
  ) {}

  /** A page of them; an unknown conversion (or another app's, or an upline record) is NOT_FOUND, not an empty list. */
  async list(appId: string, conversionId: string, page: PageQuery): Promise<Page<PurchaseDoc>> {
    const root = await this.conversions.findById(appId, conversionId);
    if (!root || root.level !== 1) throw notFound('Conversion', { conversionId });
    return this.purchases.page(appId, conversionId, page);
  }
}
