import { ConversionStatus, DEFAULT_CURRENCY, type Conversion as ConversionMessage, type ConversionReward as ConversionRewardMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { entity, from, publicEnum, time } from './entity';
import { RewardSides, RewardStatuses } from './reward.mapper';

export const ConversionStatuses = publicEnum(ConversionStatus);
/** What POST /conversions records: a clean conversion or a flagged one. */
export const RecordedConversionStatuses = publicEnum(ConversionStatus, ['CONVERTED', 'FLAGGED']);

/** A GET /conversions item (docs/api.md#conversions), with the ids that link it to its conversion. */
export const Conversion = entity<ConversionMessage>()('Conversion', {
  id: z.string().openapi({ description: 'This record' }),
  conversionId: z.string().openapi({ description: 'The conversion this record belongs to (its level-1 record)' }),
  referralId: z.string(),
  referralCode: z.string().openapi({ description: "This record's code: the level-n referrer's" }),
  originalReferralCode: z.string().openapi({ description: 'The code the referee used' }),
  referrerId: z.string(),
  refereeId: z.string(),
  status: ConversionStatuses.field((s) =>
    s.openapi({
      description:
        'PENDING: referee known; CLICKED: a click carried the refereeId; CONVERTED; FLAGGED: held for fraud review; ' +
        'REJECTED: its fraud flag was rejected (rewards cancelled, counted in no figure; the referee cannot convert again in the campaign); ' +
        'REVERSED: refunded, charged back or cancelled in full (POST /conversions/{conversionId}/reversals): its rewards cancelled or clawed back; it still counts as a conversion, and as a reversal',
    }),
  ),
  rewardAmount: z.number().openapi({ description: "This record's referrer's reward (0 when none)" }),
  level: z.number().int().openapi({ description: '1 for the direct referrer, n for the referrer n-1 steps above' }),
  amount: z.number().nullable().openapi({ description: 'Monetary value reported with the conversion' }),
  reversedAmount: z.number().openapi({ description: "Level 1: what reversals took off the conversion's own `amount` (its purchases have their own); 0 when none" }),
  currency: from(
    currencyCode('ISO 4217 code of `amount` and `rewardAmount`: the campaign\'s'),
    // A referral service one release behind sends none: its campaigns are USD.
    (c: ConversionMessage) => c.currency || DEFAULT_CURRENCY,
  ),
  isFlagged: from(z.boolean(), (c: ConversionMessage) => c.fraud?.flagged ?? false),
  convertedAt: time(timestamp.nullable()),
  createdAt: time(timestamp),
  Campaign: from(z.object({ id: z.string(), name: z.string() }).nullable(), (c: ConversionMessage) => (c.campaign ? { id: c.campaign.id, name: c.campaign.name } : null)),
});

export const ConversionReward = entity<ConversionRewardMessage>()('ConversionReward', {
  rewardId: z.string(),
  userId: z.string(),
  side: RewardSides.field(),
  level: z.number().int(),
  amount: z.number(),
  status: RewardStatuses.field(),
});

/** The chain above the direct referrer, as POST /conversions reports it. */
export const Upline = entity<ConversionMessage>()(null, {
  id: z.string(),
  level: z.number().int(),
  referralCode: z.string(),
  referrerId: z.string(),
  rewardAmount: z.number(),
});

export const conversionJson = Conversion.json;
export const conversionRewardJson = ConversionReward.json;
export const uplineJson = Upline.json;
