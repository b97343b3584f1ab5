import { domainEvent, stableEventId, type DomainEvent } from '@ris/events';
import type { MarketplaceRedemptionDoc } from './marketplace-redemption.model';

// docs/events.md lists the type and its data. The id is derived from the
// redemption, so publishing it again is harmless.

/** appId is the redeeming app; the webhook service also delivers it to listingAppId, the listing's owner. */
export function marketplaceRedeemed(redemption: MarketplaceRedemptionDoc): DomainEvent {
  return domainEvent(
    'marketplace.redeemed',
    redemption.appId,
    {
      redemptionId: redemption._id,
      listingId: redemption.listingId,
      listingAppId: redemption.listingAppId,
      userId: redemption.userId,
      discountCode: redemption.discountCode,
      expiresAt: redemption.expiresAt.toISOString(),
      listingTitle: redemption.listingTitle,
      discount: { type: redemption.discount.type, value: redemption.discount.value },
      coinCost: redemption.coinCost,
      tokenCost: redemption.tokenCost,
      redeemedAt: redemption.createdAt.toISOString(),
    },
    { id: stableEventId('marketplace.redeemed', redemption.appId, redemption._id), occurredAt: redemption.createdAt },
  );
}
