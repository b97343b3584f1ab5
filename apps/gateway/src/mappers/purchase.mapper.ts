import { DEFAULT_CURRENCY, type Purchase as PurchaseMessage } from '@ris/contracts';
import { timestamp } from '../openapi/common-schemas';
import { currencyCode } from '../openapi/money-fields';
import { z } from '../openapi/zod';
import { entity, from, time } from './entity';

const PURCHASE_STATUSES = ['ACTIVE', 'REVERSED'] as const;
type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];
const isPurchaseStatus = (status: string): status is PurchaseStatus => (PURCHASE_STATUSES as readonly string[]).includes(status);

/** A converted referee's later payment on a recurring campaign (docs/api.md#purchases). */
export const Purchase = entity<PurchaseMessage>()('Purchase', {
  id: z.string(),
  conversionId: z.string().openapi({ description: 'The conversion it follows (its level-1 record)' }),
  campaignId: z.string(),
  refereeId: z.string().openapi({ description: 'The converted referee who paid' }),
  amount: z.number().openapi({ description: "The sale, in `currency`: percentage rules pay their share of it, fixed rules their amount" }),
  currency: from(currencyCode("ISO 4217 code of `amount` and of the purchase's rewards: the campaign's"), (p: PurchaseMessage) => p.currency || DEFAULT_CURRENCY),
  externalId: z.string().nullable().openapi({ description: 'Your id of the payment (an invoice id), unique per conversion; null when none was sent' }),
  occurredAt: time(timestamp.openapi({ description: 'When the payment happened (the one sent, or when it was recorded): the recurring window is judged by it' })),
  createdAt: time(timestamp),
  reversedAmount: z.number().openapi({ description: 'What reversals (refunds, chargebacks) took off it; 0 when none' }),
  status: from(
    z.enum(PURCHASE_STATUSES).openapi({ description: 'ACTIVE, or REVERSED once reversed in full' }),
    (p: PurchaseMessage) => (isPurchaseStatus(p.status) ? p.status : 'ACTIVE'),
  ),
});

export const purchaseJson = Purchase.json;
