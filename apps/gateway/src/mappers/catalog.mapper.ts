import { RedemptionStatus, type BalanceSnapshot, type CatalogItem as CatalogItemMessage, type Redemption as RedemptionMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { z } from '../openapi/zod';
import { entity, publicEnum, time } from './entity';

export const RedemptionStatuses = publicEnum(RedemptionStatus);
/** Where a PENDING redemption may move. */
export const RedemptionMoves = publicEnum(RedemptionStatus, ['FULFILLED', 'CANCELLED']);

export const CatalogItem = entity<CatalogItemMessage>()('CatalogItem', {
  id: z.string(),
  name: z.string(),
  description: z.string(),
  coinCost: z.number().int(),
  tokenCost: z.number().int(),
  inventory: z.number().int().openapi({ description: 'Units left; -1 means unlimited.' }),
  published: z.boolean().openapi({ description: 'Only published items can be redeemed.' }),
  createdAt: time(timestamp),
  updatedAt: time(timestamp),
});

export const Redemption = entity<RedemptionMessage>()('Redemption', {
  id: z.string(),
  userId: z.string(),
  itemId: z.string(),
  itemName: z.string().openapi({ description: "The item's name when it was redeemed." }),
  coinCost: z.number().int().openapi({ description: 'Coins paid.' }),
  tokenCost: z.number().int().openapi({ description: 'Tokens paid.' }),
  status: RedemptionStatuses.field((s) => s.openapi({ description: 'PENDING → FULFILLED, or PENDING → CANCELLED (refunded and restocked).' })),
  redeemedAt: time(timestamp),
  fulfilledAt: time(timestamp.nullable()),
  cancelledAt: time(timestamp.nullable()),
  updatedAt: time(timestamp),
});

const BalanceSnapshotShape = entity<BalanceSnapshot>()(null, { coins: z.number(), tokens: z.number(), xp: z.number(), level: z.number().int() });

/** The balance after a redemption: null only when a free redemption could not read it. */
export const BalanceAfterRedemption = BalanceSnapshotShape.schema.nullable().openapi('BalanceAfterRedemption', {
  description: "The user's balance right after the debit (null only if a free redemption could not read it).",
});

export const catalogItemJson = CatalogItem.json;
export const redemptionJson = Redemption.json;
export const balanceJson = (balance: BalanceSnapshot | undefined) => (balance ? BalanceSnapshotShape.json(balance) : null);
