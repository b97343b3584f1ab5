import type { Page, PageQuery } from '@ris/mongo';
import type { BalanceAccount, BalanceSnapshot } from '../balances/balance-account';
import { normalizeMarketplaceCode } from './marketplace-code';
import type { ListingDoc } from './listing.model';
import type { Listings } from './listings';
import type { MarketplaceRedemptionDoc } from './marketplace-redemption.model';
import type { MarketplaceRedemptions } from './marketplace-redemptions';

export type Verification =
  | { type: 'CODE'; redemption: MarketplaceRedemptionDoc; valid: boolean }
  | { type: 'USER'; userId: string; balance: BalanceSnapshot; listings: Page<ListingDoc> };

/**
 * GET /marketplace/verify/{id} (docs/product-decisions.md §8.10): a marketplace code the
 * caller is a party to (it owns the listing, or its user redeemed it) is
 * verified; anything else is taken as a user id of the calling app, and
 * answered with that user's balance and the public listings it covers. A
 * code of two other apps is therefore never confirmed to exist.
 */
export async function verifyMarketplaceId(
  deps: { redemptions: MarketplaceRedemptions; listings: Listings; account: BalanceAccount },
  appId: string,
  id: string,
  page: PageQuery,
): Promise<Verification> {
  const code = normalizeMarketplaceCode(id);
  if (code) {
    const redemption = await deps.redemptions.findCode(appId, code);
    if (redemption) return { type: 'CODE', redemption, valid: redemption.expiresAt.getTime() > Date.now() };
  }
  const balance = await deps.account.balance(appId, id);
  const listings = await deps.listings.publicPage(page, { maxCoinCost: balance.coins, maxTokenCost: balance.tokens });
  return { type: 'USER', userId: id, balance, listings };
}
