import { DEFAULT_CURRENCY, RewardSide, RewardStatus, type Reward as RewardMessage, type RewardMove as RewardMoveMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { FulfillmentTypes } from './campaign.mapper';
import { entity, from, publicEnum, time } from './entity';

export const RewardSides = publicEnum(RewardSide);
export const RewardStatuses = publicEnum(RewardStatus);

/** The reward record of docs/product-decisions.md §6.1. */
export const Reward = entity<RewardMessage>()('Reward', {
  id: z.string(),
  userId: z.string(),
  campaignId: z.string(),
  referralId: z.string(),
  conversionId: z.string(),
  side: RewardSides.field(),
  level: z.number().int(),
  amount: z.number(),
  // A reward service one release behind sends none: its rewards are USD.
  currency: from(currencyCode("ISO 4217 code of `amount`: its campaign's"), (r: RewardMessage) => r.currency || DEFAULT_CURRENCY),
  fulfillmentType: FulfillmentTypes.field(),
  status: RewardStatuses.field((s) =>
    s.openapi({ description: 'PENDING (held for review or a deferred fraud check) → APPROVED → PAID; PENDING or APPROVED → CANCELLED' }),
  ),
  discountCode: z.string().nullable().openapi({ description: 'Set once claimed' }),
  expiresAt: time(timestamp.nullable().openapi({ description: "The code's expiry, set when claimed" })),
  claimedAt: time(timestamp.nullable()),
  redeemedAt: time(timestamp.nullable()),
  createdAt: time(timestamp),
  cancellationNote: z.string().nullable().openapi({ description: 'Why an operator cancelled it (POST /rewards/{rewardId}/cancel); null otherwise' }),
});

/** One move of GET /rewards/{rewardId}/history: a creation is from NEW. */
export const RewardMove = entity<RewardMoveMessage>()('RewardMove', {
  from: from(z.enum(['NEW', ...RewardStatuses.names]).openapi({ description: 'NEW for the creation' }), (m: RewardMoveMessage) =>
    m.from === undefined ? 'NEW' : RewardStatuses.name(m.from),
  ),
  to: RewardStatuses.field(),
  at: time(timestamp),
  note: z.string().nullable().openapi({ description: "An operator's note (a cancellation's); null otherwise" }),
});

export const rewardJson = Reward.json;
export const rewardHistoryJson = RewardMove.json;
