import { conflict, notFound } from '@ris/domain-errors';
import type { Logger } from '@ris/logging';
import type { Page, PageQuery } from '@ris/mongo';
import type { BalanceAccount, BalanceSnapshot } from '../balances/balance-account';
import { Redeemer } from '../saga/redeemer';
import { RedemptionSaga, type SagaOptions } from '../saga/redemption-saga';
import { publicStatus, requestStatus, statesShowing, type PublicRedemptionStatus } from '../saga/redemption-saga-machine';
import type { CatalogItems } from './catalog-items';
import { catalogRedemptionEvent } from './catalog-redemption-events';
import type { RedemptionDoc } from './catalog-redemption.model';
import type { CatalogRedemptionRepository } from './catalog-redemption.repository';

export interface RedemptionFilter {
  userId?: string;
  itemId?: string;
  status?: PublicRedemptionStatus;
}

/** Catalog redemptions: redeem (the saga), list, fulfil and cancel. */
export class CatalogRedemptions {
  readonly saga: RedemptionSaga<RedemptionDoc>;
  private readonly redeemer: Redeemer<RedemptionDoc>;

  constructor(
    private readonly records: CatalogRedemptionRepository,
    private readonly items: CatalogItems,
    account: BalanceAccount,
    logger: Logger,
    options: SagaOptions,
  ) {
    this.saga = new RedemptionSaga(
      {
        name: 'catalog redemption',
        debitCause: 'CATALOG_REDEMPTION',
        records,
        stock: items.stock,
        good: (r) => ({ appId: r.appId, id: r.itemId, field: 'itemId' }),
        events: (r, effect) => [catalogRedemptionEvent(r, effect)],
      },
      account,
      logger,
      options,
    );
    this.redeemer = new Redeemer(this.saga, account, logger);
  }

  /**
   * One unit for one user, all or nothing; the balance is the user's after
   * the debit. With an operation key, at most one per key (see Redeemer.redeem).
   */
  redeem(appId: string, userId: string, itemId: string, operationKey = ''): Promise<{ redemption: RedemptionDoc; balance: BalanceSnapshot | null }> {
    return this.redeemer.redeem({
      appId,
      operationKey,
      idPrefix: 'rdm',
      sameRequest: (record) => record.userId === userId && record.itemId === itemId,
      make: async (id) => {
        const item = await this.items.getRedeemable(appId, itemId);
        this.redeemer.refuseIfSoldOut(item.inventory, item, { itemId });
        const record = await this.redeemer.insert({
          _id: id,
          appId,
          userId,
          itemId,
          itemName: item.name,
          coinCost: item.coinCost,
          tokenCost: item.tokenCost,
          fulfilledAt: null,
          cancelledAt: null,
          ...this.redeemer.startFields(new Date(), operationKey),
        });
        return record && { record, limitedStock: item.inventory !== -1 };
      },
    });
  }

  list(appId: string, page: PageQuery, filter: RedemptionFilter): Promise<Page<RedemptionDoc>> {
    return this.records.page(appId, { userId: filter.userId, itemId: filter.itemId, states: statesShowing(filter.status) }, page);
  }

  /**
   * PENDING → FULFILLED or CANCELLED, by a conditional update, so of two
   * concurrent requests one wins and the other gets 409. Cancelling
   * refunds by an operation id of its own and restocks once.
   */
  async changeStatus(appId: string, redemptionId: string, target: 'FULFILLED' | 'CANCELLED'): Promise<RedemptionDoc> {
    const record = await this.records.findById(appId, redemptionId);
    if (!record) throw notFound('Redemption', { redemptionId });
    const now = new Date();
    const decision = requestStatus(record.state, target, !(await this.saga.isHeld(record, now)));
    if ('refuse' in decision) {
      if (decision.refuse === 'NOT_FOUND') throw notFound('Redemption', { redemptionId });
      throw this.invalidTransition(record, target);
    }
    switch (decision.action) {
      case 'FULFIL': {
        const fulfilled = await this.saga.move(record, { type: 'FULFIL' }, { fulfilledAt: now });
        if (!fulfilled) throw this.invalidTransition((await this.records.findById(appId, redemptionId)) ?? record, target);
        return this.saga.settleOrLeave(fulfilled);
      }
      case 'CANCEL': {
        const cancelling = await this.saga.move(record, { type: 'CANCEL' }, { cancelledAt: now });
        if (!cancelling) throw this.invalidTransition((await this.records.findById(appId, redemptionId)) ?? record, target);
        return this.finishCancel(cancelling);
      }
      case 'RESUME_CANCEL': {
        const claimed = await this.saga.claim(record, now);
        if (!claimed) throw this.invalidTransition(record, target);
        return this.finishCancel(claimed);
      }
    }
  }

  private async finishCancel(record: RedemptionDoc): Promise<RedemptionDoc> {
    try {
      return await this.saga.finishCancel(record);
    } catch (err) {
      // Decided and durable: a retry of the request, or the recovery pass, finishes the refund.
      await this.saga.releaseLease(record);
      throw err;
    }
  }

  private invalidTransition(record: RedemptionDoc, target: string) {
    const status = publicStatus(record.state);
    return conflict('INVALID_TRANSITION', `Redemption ${record._id} is ${status}; only a PENDING redemption can become ${target}.`, {
      redemptionId: record._id,
      status,
      requested: target,
    });
  }
}
