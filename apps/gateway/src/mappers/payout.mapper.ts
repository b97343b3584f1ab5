import {
  PayoutStatus,
  type Payout as PayoutMessage,
  type PayoutClawback as PayoutClawbackMessage,
  type PayoutDue as PayoutDueMessage,
  type PayoutReward as PayoutRewardMessage,
} from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { entity, publicEnum, time } from './entity';

export const PayoutStatuses = publicEnum(PayoutStatus);

/**
 * A payout of one referrer's CASH rewards less what they owe back, in one
 * currency (docs/api.md#payouts). Its fields in the order of its CSV export.
 */
export const Payout = entity<PayoutMessage>()('Payout', {
  id: z.string(),
  userId: z.string().openapi({ description: 'The referrer paid' }),
  amount: z.number().openapi({ description: 'What is sent: `rewardsAmount` less `clawbacksAmount`' }),
  currency: currencyCode('ISO 4217 code of the amounts'),
  rewardsAmount: z.number().openapi({ description: 'The CASH rewards it pays, summed' }),
  clawbacksAmount: z.number().openapi({ description: 'The clawbacks it deducts (what the referrer owed back), summed' }),
  rewardCount: z.number().int(),
  clawbackCount: z.number().int(),
  status: PayoutStatuses.field((s) =>
    s.openapi({ description: 'PENDING → PAID (its rewards PAID, its clawbacks settled) or PENDING → FAILED (its rewards and clawbacks payable again)' }),
  ),
  externalReference: z.string().nullable().openapi({ description: "The transfer's reference, given when marked paid" }),
  createdAt: time(timestamp),
  paidAt: time(timestamp.nullable()),
  failedAt: time(timestamp.nullable()),
  failureReason: z.string().nullable().openapi({ description: 'Why it failed, given when marked failed' }),
});

/** What one referrer is due now in one currency (GET /payouts/due). */
export const PayoutDue = entity<PayoutDueMessage>()('PayoutDue', {
  userId: z.string(),
  currency: currencyCode('ISO 4217 code of the amounts'),
  amount: z.number().openapi({ description: '`rewardsAmount` less `clawbacksAmount`: what a payout would send (0 or less: the clawbacks wait for later rewards)' }),
  rewardsAmount: z.number().openapi({ description: 'Payable CASH rewards (APPROVED, in no payout), summed' }),
  clawbacksAmount: z.number().openapi({ description: 'Clawbacks owed and in no payout, summed' }),
  rewardCount: z.number().int(),
  clawbackCount: z.number().int(),
  payable: z.boolean().openapi({ description: 'POST /payouts with the same minimum would pay it: `amount` is more than 0 and reaches the minimum' }),
});

/** A reward a payout pays, as it is now. */
export const PayoutReward = entity<PayoutRewardMessage>()('PayoutReward', {
  id: z.string(),
  campaignId: z.string(),
  conversionId: z.string(),
  purchaseId: z.string().nullable(),
  amount: z.number(),
  createdAt: time(timestamp),
});

/** A clawback a payout deducts. */
export const PayoutClawback = entity<PayoutClawbackMessage>()('PayoutClawback', {
  id: z.string(),
  rewardId: z.string(),
  reversalId: z.string(),
  amount: z.number(),
  reason: z.string().openapi({ description: 'REFUND, CHARGEBACK, CANCELLATION or OTHER' }),
  createdAt: time(timestamp),
});

export const payoutJson = Payout.json;
