import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { RedemptionDoc } from './catalog-redemption.model';
import { publicStatus, type SagaState } from '../saga/redemption-saga-machine';
import type { PublishEffect } from '../saga/redemption-saga';

// docs/events.md lists these types and their data. Ids are derived from
// the redemption and the step, so publishing a step again is harmless.

const CATALOG_TYPES: Record<PublishEffect, { type: string; state: SagaState }> = {
  PUBLISH_CONFIRMED: { type: 'redemption.created', state: 'CONFIRMED' },
  PUBLISH_FULFILLED: { type: 'redemption.fulfilled', state: 'FULFILLED' },
  PUBLISH_CANCELLED: { type: 'redemption.cancelled', state: 'CANCELLED' },
};

export function catalogRedemptionEvent(redemption: RedemptionDoc, effect: PublishEffect): DomainEvent {
  const { type, state } = CATALOG_TYPES[effect];
  const occurredAt =
    effect === 'PUBLISH_FULFILLED' ? redemption.fulfilledAt : effect === 'PUBLISH_CANCELLED' ? redemption.cancelledAt : redemption.createdAt;
  return domainEvent(
    type,
    redemption.appId,
    {
      redemptionId: redemption._id,
      userId: redemption.userId,
      itemId: redemption.itemId,
      itemName: redemption.itemName,
      coinCost: redemption.coinCost,
      tokenCost: redemption.tokenCost,
      // The status the step moved it to (an event published late still says what it announces).
      status: publicStatus(state),
      redeemedAt: redemption.createdAt.toISOString(),
    },
    { id: stableEventId(type, redemption.appId, redemption._id), occurredAt: occurredAt ?? redemption.updatedAt },
  );
}
