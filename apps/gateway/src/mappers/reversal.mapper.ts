import { DEFAULT_CURRENCY, ReversalReason, type Clawback as ClawbackMessage, type Reversal as ReversalMessage, type RewardReversal as RewardReversalMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { Reward } from './reward.mapper';

export const ReversalReasons = publicEnum(ReversalReason);

const EFFECTS = ['REDUCED', 'CANCELLED', 'CLAWBACK', 'UNCHANGED'] as const;
type Effect = (typeof EFFECTS)[number];
const isEffect = (value: string): value is Effect => (EFFECTS as readonly string[]).includes(value);

/** A refund, chargeback or cancellation of a conversion or one of its purchases (docs/api.md#reversals). */
export const Reversal = entity<ReversalMessage>()('Reversal', {
  id: z.string(),
  conversionId: z.string().openapi({ description: 'The conversion (its level-1 record)' }),
  purchaseId: z.string().nullable().openapi({ description: "The purchase reversed; null: the conversion's own sale" }),
  reason: ReversalReasons.field(),
  amount: z.number().openapi({ description: 'The part of the sale reversed (what was left of it, for a full reversal; 0 for a conversion recorded without an amount)' }),
  full: z.boolean().openapi({ description: 'The sale is reversed in full: every reward of it cancelled or clawed back' }),
  note: z.string().nullable(),
  currency: from(currencyCode('ISO 4217 code of the amounts: the campaign\'s'), (r: ReversalMessage) => r.currency || DEFAULT_CURRENCY),
  rewardAmountReversed: z.number().openapi({ description: 'Reward value taken off rewards not paid out yet (reduced or cancelled)' }),
  clawbackAmount: z.number().openapi({ description: 'Reward value owed back by referrers whose rewards were paid already (GET /rewards/clawbacks)' }),
  createdAt: time(timestamp),
});

/** What one reversal did to one reward of the sale. */
export const RewardReversal = entity<RewardReversalMessage>()('RewardReversal', {
  reward: from(Reward.schema, (r: RewardReversalMessage) => Reward.json(r.reward!)),
  effect: from(
    z.enum(EFFECTS).openapi({
      description:
        'REDUCED: a share-of-sale reward not paid out shrank in proportion; CANCELLED: taken back whole (its code no longer validates: reason REVERSED); ' +
        'CLAWBACK: paid already, so owed back (`clawbackAmount`); UNCHANGED: a fixed reward on a partial reversal, or a reward cancelled before',
    }),
    (r: RewardReversalMessage) => (isEffect(r.effect) ? r.effect : 'UNCHANGED'),
  ),
  fromAmount: z.number().openapi({ description: 'Its value before (a paid reward: less what was owed back before)' }),
  toAmount: z.number().openapi({ description: 'Its value after' }),
  clawbackAmount: z.number().openapi({ description: 'Owed back by its owner (CLAWBACK), 0 otherwise' }),
});

/** What a referrer owes back for a reward paid before its sale was reversed. */
export const Clawback = entity<ClawbackMessage>()('Clawback', {
  id: z.string(),
  rewardId: z.string(),
  userId: z.string().openapi({ description: 'Who owes it: the reward\'s owner' }),
  campaignId: z.string(),
  conversionId: z.string(),
  purchaseId: z.string().nullable(),
  reversalId: z.string(),
  amount: z.number().openapi({ description: 'Owed back, in `currency`' }),
  currency: currencyCode("ISO 4217 code of `amount`: the reward's"),
  reason: z.string().openapi({ description: 'REFUND, CHARGEBACK, CANCELLATION or OTHER' }),
  createdAt: time(timestamp),
  payoutId: z.string().nullable().openapi({ description: 'The payout (PENDING or PAID) that deducts it; null while no payout does' }),
  settledAt: time(timestamp.nullable().openapi({ description: 'When the payout that deducted it was paid: owed no more' })),
});

export const reversalJson = Reversal.json;
export const rewardReversalJson = RewardReversal.json;
export const clawbackJson = Clawback.json;
