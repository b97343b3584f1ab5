import type { Answer, Body, Conversion } from '../../api/types';
import { formatDate, formatMoney } from '../../ui/format';

export type Purchase = Answer<'/api/v1/conversions/{conversionId}/purchases', 'get'>['purchases'][number];
export type Reversal = Answer<'/api/v1/conversions/{conversionId}/reversals', 'get'>['reversals'][number];
export type ReverseRequest = Body<'/api/v1/conversions/{conversionId}/reversals', 'post'>;
export type ReverseAnswer = Answer<'/api/v1/conversions/{conversionId}/reversals', 'post'>;
export type RewardEffect = ReverseAnswer['rewards'][number];
export type ReversalReason = ReverseRequest['reason'];

export const REVERSAL_REASONS: Array<{ value: ReversalReason; label: string }> = [
  { value: 'REFUND', label: 'Refund' },
  { value: 'CHARGEBACK', label: 'Chargeback' },
  { value: 'CANCELLATION', label: 'Cancellation' },
  { value: 'OTHER', label: 'Other' },
];

/** The select's value for the conversion's own sale (any other value is a purchase's id). */
export const OWN_SALE = 'conversion';

/** The decimals of a currency's smallest unit (USD 2, JPY 0), as Intl knows them; 2 for a code it does not. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** `value` in whole minor units of the currency: amounts are compared in them, never as binary fractions (as the API does). */
const minorUnits = (value: number, currency: string) => Math.round(value * 10 ** currencyDigits(currency));

/** One sale a reversal may apply to: the conversion's own, or one of its purchases. */
export interface SaleOption {
  value: string;
  label: string;
  /** The sale recorded; null: a conversion reported without an amount (only a full reversal applies). */
  amount: number | null;
  /** What is left of it to reverse; null without an amount. */
  left: number | null;
  currency: string;
}

/** What is left of a sale: its amount less what reversals took, in the currency's units. */
function leftOf(amount: number, reversed: number, currency: string): number {
  const digits = currencyDigits(currency);
  return Math.max(0, minorUnits(amount, currency) - minorUnits(reversed, currency)) / 10 ** digits;
}

/**
 * The sales of a conversion that can still be reversed, the conversion's
 * own first: its own while it is not REVERSED (reversed in full), each
 * purchase while it is ACTIVE.
 */
export function reversibleSales(conversion: Pick<Conversion, 'status' | 'amount' | 'reversedAmount' | 'currency'>, purchases: readonly Purchase[]): SaleOption[] {
  const own: SaleOption[] =
    conversion.status === 'REVERSED' || conversion.status === 'REJECTED'
      ? []
      : [
          {
            value: OWN_SALE,
            label:
              conversion.amount === null
                ? 'The conversion (no amount recorded)'
                : `The conversion: ${formatMoney(conversion.amount, conversion.currency)}, ${formatMoney(leftOf(conversion.amount, conversion.reversedAmount, conversion.currency), conversion.currency)} left`,
            amount: conversion.amount,
            left: conversion.amount === null ? null : leftOf(conversion.amount, conversion.reversedAmount, conversion.currency),
            currency: conversion.currency,
          },
        ];
  const bought = purchases
    .filter((p) => p.status === 'ACTIVE')
    .map((p) => {
      const left = leftOf(p.amount, p.reversedAmount, p.currency);
      return {
        value: p.id,
        label: `Purchase ${p.externalId ?? p.id} of ${formatDate(p.occurredAt)}: ${formatMoney(p.amount, p.currency)}, ${formatMoney(left, p.currency)} left`,
        amount: p.amount,
        left,
        currency: p.currency,
      };
    });
  return [...own, ...bought];
}

export interface ReversalFormValues {
  sale: string;
  scope: 'FULL' | 'PARTIAL';
  amount: number | string;
  reason: ReversalReason | null;
  note: string;
}

export const NEW_REVERSAL: ReversalFormValues = { sale: OWN_SALE, scope: 'FULL', amount: '', reason: null, note: '' };

const MAX_NOTE = 2000;

/**
 * What the API would refuse, on its field, before sending: a reason; for a
 * part of a sale, an amount more than 0, in the currency's smallest unit,
 * at most what is left (422 REVERSAL_EXCEEDS_SALE), of a sale recorded with
 * an amount (422 AMOUNT_NOT_REVERSIBLE); a note of at most 2000 characters.
 */
export function reversalErrors(values: ReversalFormValues, sales: readonly SaleOption[]): Partial<Record<keyof ReversalFormValues, string>> {
  const errors: Partial<Record<keyof ReversalFormValues, string>> = {};
  const sale = sales.find((s) => s.value === values.sale);
  if (!sale) errors.sale = 'Pick the sale to reverse';
  if (!values.reason) errors.reason = 'Pick a reason';
  if ([...values.note].length > MAX_NOTE) errors.note = `At most ${MAX_NOTE} characters`;
  if (values.scope === 'PARTIAL' && sale) {
    const amount = typeof values.amount === 'number' ? values.amount : values.amount.trim() === '' ? NaN : Number(values.amount);
    const digits = currencyDigits(sale.currency);
    if (sale.left === null) errors.amount = 'This sale was recorded without an amount: only a full reversal applies';
    else if (typeof values.amount === 'string' && values.amount.trim() === '') errors.amount = 'Required';
    else if (!Number.isFinite(amount)) errors.amount = 'Must be a number';
    else if (amount <= 0) errors.amount = 'Must be more than 0';
    else if (Math.abs(amount * 10 ** digits - Math.round(amount * 10 ** digits)) > 1e-6) errors.amount = digits === 0 ? 'Must be a whole amount' : `At most ${digits} decimals`;
    else if (minorUnits(amount, sale.currency) > minorUnits(sale.left, sale.currency)) errors.amount = `At most ${formatMoney(sale.left, sale.currency)}: what is left of the sale`;
  }
  return errors;
}

/** The form as POST /conversions/{conversionId}/reversals takes it: no amount for all that is left, no purchaseId for the conversion's own sale. */
export function reversalRequest(values: ReversalFormValues): ReverseRequest {
  const note = values.note.trim();
  return {
    reason: values.reason ?? 'OTHER',
    ...(values.scope === 'PARTIAL' ? { amount: Number(values.amount) } : {}),
    ...(values.sale !== OWN_SALE ? { purchaseId: values.sale } : {}),
    ...(note ? { note } : {}),
  };
}

const EFFECT_WORDS: Record<RewardEffect['effect'], string> = {
  REDUCED: 'reduced',
  CANCELLED: 'cancelled',
  CLAWBACK: 'owed back',
  UNCHANGED: 'unchanged',
};

/** What a reversal did to one reward, in words: `reduced from $6.00 to $4.00`, `cancelled ($6.00)`, `$2.00 owed back`, `unchanged ($3.00)`. */
export function effectText(r: RewardEffect): string {
  const money = (value: number) => formatMoney(value, r.reward.currency);
  switch (r.effect) {
    case 'REDUCED':
      return `${EFFECT_WORDS.REDUCED} from ${money(r.fromAmount)} to ${money(r.toAmount)}`;
    case 'CLAWBACK':
      return `paid already: ${money(r.clawbackAmount)} ${EFFECT_WORDS.CLAWBACK}`;
    default:
      return `${EFFECT_WORDS[r.effect]} (${money(r.fromAmount)})`;
  }
}

const REASON_WORDS: Record<string, string> = Object.fromEntries(REVERSAL_REASONS.map((r) => [r.value, r.label.toLowerCase()]));

/** A reason in words (`refund`); one this dashboard does not know, as the API spells it. */
export const reasonText = (reason: string) => REASON_WORDS[reason] ?? reason.toLowerCase();
