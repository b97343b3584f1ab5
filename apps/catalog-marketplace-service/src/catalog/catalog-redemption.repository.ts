import type { Connection, FilterQuery } from 'mongoose';
import type { Outbox } from '@ris/events';
import type { Page, PageQuery } from '@ris/mongo';
import type { SagaState } from '../saga/redemption-saga-machine';
import { SagaRecordRepository } from '../saga/saga-record.repository';
import { redemptionModel, type RedemptionDoc } from './catalog-redemption.model';

export interface CatalogRedemptionFilter {
  userId?: string;
  itemId?: string;
  /** The states a public status shows (statesShowing). */
  states: SagaState[];
}

/** Catalog redemptions: their saga's writes (SagaRecordRepository) and the app's list of them. */
export class CatalogRedemptionRepository extends SagaRecordRepository<RedemptionDoc> {
  constructor(db: Connection, outbox: Outbox) {
    super(redemptionModel(db), outbox);
  }

  /** GET /incentives/redemptions: newest first (ties by id), by user, item and states. */
  page(appId: string, filter: CatalogRedemptionFilter, page: PageQuery): Promise<Page<RedemptionDoc>> {
    const query: FilterQuery<RedemptionDoc> = { state: { $in: filter.states } };
    if (filter.userId) query.userId = filter.userId;
    if (filter.itemId) query.itemId = filter.itemId;
    return this.collection.page(appId, query, { createdAt: -1, _id: -1 }, page);
  }
}
