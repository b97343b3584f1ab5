import { RedemptionStatus, enumName, type BalanceSnapshot, type CatalogItem, type Redemption } from '@ris/contracts';
import { isoTime } from './proto-json';

export function catalogItemJson(item: CatalogItem) {
  return {
    id: item.id,
    name: item.name,
    description: item.description,
    coinCost: item.coinCost,
    tokenCost: item.tokenCost,
    inventory: item.inventory,
    published: item.published,
    createdAt: isoTime(item.createdAt),
    updatedAt: isoTime(item.updatedAt),
  };
}

export function redemptionJson(r: Redemption) {
  return {
    id: r.id,
    userId: r.userId,
    itemId: r.itemId,
    itemName: r.itemName,
    coinCost: r.coinCost,
    tokenCost: r.tokenCost,
    status: enumName(RedemptionStatus, r.status) ?? null,
    redeemedAt: isoTime(r.redeemedAt),
    fulfilledAt: isoTime(r.fulfilledAt),
    cancelledAt: isoTime(r.cancelledAt),
    updatedAt: isoTime(r.updatedAt),
  };
}

/** The balance after a redemption: null only when a free redemption could not read it. */
export function balanceJson(balance: BalanceSnapshot | undefined) {
  return balance ? { coins: balance.coins, tokens: balance.tokens, xp: balance.xp, level: balance.level } : null;
}
