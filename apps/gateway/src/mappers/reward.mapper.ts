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
  amount: z.number().openapi({ description: 'What it is worth now: `earnedAmount` less what partial reversals reduced it by (a PAID reward keeps what it was paid; what is owed back is a clawback)' }),
  earnedAmount: z.number().openapi({ description: 'What it was created with' }),
  reversedAmount: z.number().openapi({ description: 'Value reversals (refunds, chargebacks) took back: reduced, cancelled or owed back; 0 when none' }),
  reversalReason: z.string().nullable().openapi({ description: 'REFUND, CHARGEBACK, CANCELLATION or OTHER: the reason of the last reversal that changed it; null otherwise' }),
  purchaseId: z.string().nullable().openapi({ description: "The later purchase that earned it (a recurring commission); null for the conversion's own reward" }),
  availableAt: time(
    timestamp.nullable().openapi({
      description: "The end of its campaign's holding period: a PENDING reward becomes APPROVED by itself then (unless a fraud review still holds it); null when it was never held so",
    }),
  ),
  // A reward service one release behind sends none: its rewards are USD.
  currency: from(currencyCode("ISO 4217 code of `amount`: its campaign's"), (r: RewardMessage) => r.currency || DEFAULT_CURRENCY),
  fulfillmentType: FulfillmentTypes.field(),
  status: RewardStatuses.field((s) =>
    s.openapi({
      description:
        'PENDING (held for review, a deferred fraud check or its holding period until `availableAt`) → APPROVED → PAID (redeemed; a CASH reward: its payout marked paid); PENDING or APPROVED → CANCELLED (by an operator, a rejected review or a full reversal of its sale; never while in a payout)',
    }),
  ),
  discountCode: z.string().nullable().openapi({ description: 'Set once claimed' }),
  expiresAt: time(timestamp.nullable().openapi({ description: "The code's expiry, set when claimed" })),
  claimedAt: time(timestamp.nullable()),
  redeemedAt: time(timestamp.nullable()),
  createdAt: time(timestamp),
  cancellationNote: z.string().nullable().openapi({ description: 'Why an operator cancelled it (POST /rewards/{rewardId}/cancel); null otherwise' }),
  payoutId: z.string().nullable().openapi({ description: 'A CASH reward: the payout (PENDING or PAID) it is in; null while in none (payable once APPROVED)' }),
  paidAt: time(timestamp.nullable().openapi({ description: 'A CASH reward: when its payout was marked paid' })),
  clawedBack: z.number().openapi({ description: 'What its owner owes back for it after reversals of its sale (its clawbacks summed); 0 when none' }),
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
